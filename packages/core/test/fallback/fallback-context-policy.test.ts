// A fallback list and a context policy on the same run: the policy shapes what every model of the list is
// sent (the secondary inherits a long conversation it never saw, so it needs the budget most), and the turn
// the primary failed is re-asked once, shaped, without running a page read twice.
import { describe, expect, it } from 'vitest';
import { answeringModelOf, type Message, ProviderError, runLoop } from '../../src/index.js';
import { contextWorld, isPlaceholder, pairingProblems, resultsOf } from '../context/context-world.js';
import { call, callsTurn, type FakeModel, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Read the archive, page by page.' }];

const overloaded = new ProviderError({
  provider: 'anthropic',
  code: 'overloaded',
  message: 'Overloaded',
  status: 529,
  retryable: true,
});

const readPage = (n: number) => callsTurn([call(`p${n}`, 'read_page', { n })]);

const policy = { maxTokens: 20_000, keepTurns: 2 } as const;

describe('fallback with a context policy', () => {
  it('the secondary is sent what one model would have been sent, within the budget; no page is read twice', async () => {
    const primary: FakeModel = {
      ...scripted([
        readPage(1),
        readPage(2),
        readPage(3),
        () => {
          throw overloaded;
        },
      ]),
      provider: 'anthropic',
      modelId: 'claude-test',
    };
    const secondary: FakeModel = {
      ...scripted([readPage(4), readPage(5), readPage(6), readPage(7), readPage(8), textTurn('done')]),
      provider: 'openai',
      modelId: 'gpt-test',
    };
    const sentTokens: number[] = [];
    const result = await runLoop({
      ...contextWorld(),
      model: [primary, secondary],
      messages: user,
      maxTurns: 20,
      contextPolicy: { ...policy, onRequest: (report) => sentTokens.push(report.sentTokens) },
    });

    expect(result.status).toBe('completed');
    // Turns 1–3 on the primary; turn 4, which the primary failed, and after on the secondary.
    expect(result.turns.map((turn) => answeringModelOf(turn)?.provider)).toEqual([
      ...Array(3).fill('anthropic'),
      ...Array(6).fill('openai'),
    ]);
    // Eight pages, each read once; the run keeps every page whole.
    const results = resultsOf(result.messages);
    expect(results.map((part) => part.callId)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
    for (const part of results) expect(isPlaceholder(part)).toBe(false);
    for (const tokens of sentTokens) expect(tokens).toBeLessThanOrEqual(policy.maxTokens);

    // The same run on one model: the secondary was sent exactly what that model was sent from turn 4 on.
    const alone = scripted([...[1, 2, 3, 4, 5, 6, 7, 8].map(readPage), textTurn('done')]);
    await runLoop({ ...contextWorld(), model: alone, messages: user, maxTurns: 20, contextPolicy: policy });
    expect(secondary.requests).toHaveLength(6);
    for (const [index, request] of secondary.requests.entries()) {
      expect(pairingProblems(request)).toEqual([]);
      expect(resultsOf(request.messages)).toEqual(resultsOf(alone.requests[index + 3]?.messages ?? []));
    }
    // And what it was sent was shaped: its last request has old pages cleared, the last two whole.
    const last = resultsOf(secondary.requests.at(-1)?.messages ?? []);
    expect(last.filter(isPlaceholder).length).toBeGreaterThan(0);
    for (const part of last.slice(-2)) expect(isPlaceholder(part)).toBe(false);
  });
});
