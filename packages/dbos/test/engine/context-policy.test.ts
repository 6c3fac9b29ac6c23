// A context policy in a durable run (the engine-neutral segment over the in-memory engine): the model step
// is asked with the shaped request, the run's outcome keeps every result whole; a model that clears results
// itself is still known to, through the step, and gets the whole request with the edit to make.
import {
  createCatalogue,
  defineTool,
  everySession,
  type Model,
  type ModelRequest,
  type ModelTurn,
  toolResultText,
} from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { type DurableRunInput, driveDurableRun } from '../../src/index.js';
import { memoryEngine } from './memory-engine.js';

const PAGE = 'archive text '.repeat(1_600);
const catalogue = createCatalogue([
  defineTool({
    name: 'read_page',
    description: 'Reads a page.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    right: everySession,
    outputTrust: 'trusted',
    run: () => PAGE,
  }),
]);
const start: DurableRunInput = {
  kind: 'start',
  runId: 'r-context',
  session: { id: 's1', humanId: 'alice', rights: [] },
  messages: [{ role: 'user', content: 'Read four pages.' }],
};

function reader(clearsToolResults?: boolean) {
  const requests: ModelRequest[] = [];
  const turns: ModelTurn[] = [
    ...[1, 2, 3, 4].map((n) => toolCallsTurn([{ id: `p${n}`, name: 'read_page', input: { n } }])),
    textTurn('Read.'),
  ];
  const model: Model = {
    provider: 'scripted',
    modelId: 'reader',
    ...(clearsToolResults === undefined ? {} : { clearsToolResults }),
    async generate(request) {
      requests.push(request);
      return turns[requests.length - 1] as ModelTurn;
    },
  };
  return { model, requests };
}

const cleared = (request: ModelRequest | undefined) =>
  (request?.messages ?? []).flatMap((message) =>
    message.role === 'tool'
      ? message.content.map((part) => toolResultText(part.content).startsWith('[Result cleared'))
      : [],
  );

describe('a context policy in a durable segment', () => {
  it('asks the model step with the shaped request; the outcome keeps every page', async () => {
    const { model, requests } = reader();
    const outcome = await driveDurableRun(start, memoryEngine('r-context', [], new Map()), {
      model,
      catalogue,
      contextPolicy: { maxTokens: 9_000, keepTurns: 1 },
    });
    expect(outcome.status).toBe('completed');
    expect(cleared(requests.at(-1))).toEqual([true, true, true, false]);
    const pages = outcome.result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(pages.map((part) => part.content)).toEqual([PAGE, PAGE, PAGE, PAGE]);
  });

  it("keeps the model's own clearing known through the step", async () => {
    const { model, requests } = reader(true);
    await driveDurableRun(start, memoryEngine('r-context', [], new Map()), {
      model,
      catalogue,
      contextPolicy: { maxTokens: 9_000, keepTurns: 1, native: true },
    });
    expect(cleared(requests.at(-1))).toEqual([false, false, false, false]);
    expect(requests.at(-1)?.contextEditing?.clearToolResults.triggerTokens).toBe(9_000);
  });
});
