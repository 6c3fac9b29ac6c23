import { describe, expect, it } from 'vitest';
import {
  createSession,
  InMemoryJournal,
  type Message,
  type PausedRun,
  type RepairRequest,
  type RepairToolCall,
  resumeLoop,
  runLoop,
  toolResultText,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Trouve A-1234.' }];

function firstResult(messages: readonly Message[]) {
  const reply = messages.find((message) => message.role === 'tool');
  return reply?.role === 'tool' ? reply.content[0] : undefined;
}

describe('repairToolCall', () => {
  it('fixes unparsable JSON; the fixed call is checked and run, the journal keeps the original and the repair', async () => {
    const { catalogue, session } = paymentWorld();
    const journal = new InMemoryJournal();
    const asked: RepairRequest[] = [];
    const broken = call('c1', 'chercher_dossier', undefined, {
      rawInput: '{"numero": "A-1234"',
      inputError: 'Unexpected end',
    });
    const model = scripted([callsTurn([broken]), textTurn('ok')]);
    const repair: RepairToolCall = (request) => {
      asked.push(request);
      return { name: request.call.name, input: JSON.parse(`${request.call.rawInput}}`) };
    };
    const called: string[] = [];
    const result = await runLoop({
      model,
      catalogue,
      session,
      journal,
      messages: user,
      repairToolCall: repair,
      hooks: { onCall: (event) => void called.push(`${event.call.name}:${JSON.stringify(event.call.input)}`) },
    });
    expect(called).toEqual(['chercher_dossier:{"numero":"A-1234"}']);
    expect(asked.map((request) => request.problem)).toEqual(['malformed_json']);
    expect(asked[0]?.tools.map((tool) => tool.name)).toEqual(['chercher_dossier', 'virement']);
    const part = firstResult(result.messages);
    expect(part?.isError).toBe(false);
    expect(journal.entries).toHaveLength(1);
    expect(journal.entries[0]).toMatchObject({
      verdict: 'executed',
      toolName: 'chercher_dossier',
      input: { numero: 'A-1234' },
      repair: {
        problem: 'malformed_json',
        outcome: 'repaired',
        original: { toolName: 'chercher_dossier', input: null, rawInput: '{"numero": "A-1234"' },
      },
    });
    // The conversation carries the repaired call (the model sees what ran); `turns` keeps what it said.
    const assistant = result.messages.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' ? assistant.content[0] : undefined).toMatchObject({
      id: 'c1',
      input: { numero: 'A-1234' },
    });
    expect(result.turns[0]?.content[0]).toMatchObject({ inputError: 'Unexpected end' });
    // The next request sends the repaired call.
    const sent = model.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(sent?.role === 'assistant' ? sent.content[0] : undefined).toMatchObject({ input: { numero: 'A-1234' } });
  });

  it("maps an unknown tool name; a schema failure of the repair gets the repaired call's own refusal", async () => {
    const { catalogue, session } = paymentWorld();
    const journal = new InMemoryJournal();
    const model = scripted([
      callsTurn([call('c1', 'lookup_case', { numero: 'A-1234' }), call('c2', 'find_case', { numero: 'A-1234' })]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue,
      session,
      journal,
      messages: user,
      repairToolCall: ({ call: original }) =>
        original.name === 'lookup_case'
          ? { name: 'chercher_dossier', input: original.input }
          : { name: 'chercher_dossier', input: { numero: 'not a number' } },
    });
    const reply = result.messages.find((message) => message.role === 'tool');
    const parts = reply?.role === 'tool' ? reply.content : [];
    expect(parts.map((part) => [part.name, part.isError])).toEqual([
      ['chercher_dossier', false],
      ['chercher_dossier', true],
    ]);
    expect(journal.entries.map((entry) => [entry.verdict, entry.reason, entry.repair?.original?.toolName])).toEqual([
      ['executed', undefined, 'lookup_case'],
      ['refused', 'invalid_input', 'find_case'],
    ]);
  });

  it('never skips rights or confirmation: a repair into an irreversible tool waits for the human, and resumes', async () => {
    const { catalogue, session, runs } = paymentWorld();
    const journal = new InMemoryJournal();
    const model = scripted([callsTurn([call('c1', 'pay', { amount: 10, to: 'bob' })]), textTurn('ok')]);
    const repairToolCall: RepairToolCall = ({ call: original }) => ({ name: 'virement', input: original.input });
    const first = await runLoop({
      model,
      catalogue,
      session,
      journal,
      messages: user,
      confirmation: 'pause',
      repairToolCall,
    });
    expect(first.status).toBe('paused');
    expect(runs).toEqual([]);
    const paused = JSON.parse(JSON.stringify(first.paused)) as PausedRun;
    expect(paused.pending[0]?.toolName).toBe('virement');
    const pending = paused.pending[0];
    if (pending === undefined) throw new Error('expected a pending call');
    await resumeLoop(paused, [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }], {
      model,
      catalogue,
      session,
      journal,
      repairToolCall,
    });
    expect(runs).toEqual([{ amount: 10, to: 'bob' }]);

    // Without the right, the repaired call is refused at the third check.
    const { catalogue: other } = paymentWorld();
    const reader = createSession({ id: 'session-8', humanId: 'paul', rights: ['dossiers:lire'] });
    const refused = await runLoop({
      model: scripted([callsTurn([call('c1', 'pay', { amount: 10, to: 'bob' })]), textTurn('ok')]),
      catalogue: other,
      session: reader,
      journal,
      messages: user,
      repairToolCall,
    });
    expect(firstResult(refused.messages)?.isError).toBe(true);
    expect(journal.entries.at(-1)).toMatchObject({ reason: 'missing_right', repair: { outcome: 'repaired' } });
  });

  it('a hook that throws, returns garbage or a non-object input leaves the original refusal, never an escape', async () => {
    const hooks: RepairToolCall[] = [
      () => {
        throw new Error('model down');
      },
      () => 42 as never,
      () => ({ name: '', input: {} }),
      () => ({ name: 'chercher_dossier', input: [1, 2] }),
      () => ({ name: 'chercher_dossier', input: 10n }) as never,
      () =>
        Object.defineProperty({}, 'name', {
          get() {
            throw new Error('hostile');
          },
        }) as never,
      async () => undefined,
    ];
    for (const repairToolCall of hooks) {
      const { catalogue, session } = paymentWorld();
      const journal = new InMemoryJournal();
      const model = scripted([callsTurn([call('c1', 'nope', {})]), textTurn('ok')]);
      const result = await runLoop({ model, catalogue, session, journal, messages: user, repairToolCall });
      expect(result.status).toBe('completed');
      const part = firstResult(result.messages);
      expect(part?.isError).toBe(true);
      expect(toolResultText(part?.content ?? '')).toContain('There is no tool named "nope"');
      expect(journal.entries[0]?.reason).toBe('unknown_tool');
      expect(['failed', 'declined']).toContain(journal.entries[0]?.repair?.outcome);
    }
  });

  it('is never asked twice for one call, nor for a call that passes the first two checks', async () => {
    const { catalogue, session } = paymentWorld();
    let asked = 0;
    const model = scripted([
      callsTurn([call('c1', 'nope', {}), call('c2', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue,
      session,
      messages: user,
      repairToolCall: () => {
        asked += 1;
        return { name: 'still_unknown', input: {} };
      },
    });
    expect(asked).toBe(1);
    expect(firstResult(result.messages)?.name).toBe('still_unknown');
  });
});
