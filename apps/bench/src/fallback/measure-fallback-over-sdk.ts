import { createCatalogue, createSession, type Message, type ModelPrice, runLoop } from '@toolcircuit/core';
import { ORDERS_RIGHT, orderToolDefinition } from '../scenario/order-tool-definition.js';
import { createInstantFetch } from '../wire/instant-fetch.js';
import { WIRE_TOOL } from '../wire/play-conversation.js';
import { WIRE_ADAPTERS } from '../wire/wire-adapters.js';
import { compareOneAndList, cpuUsPerTurn, type FallbackCost } from './one-or-list.js';

/** The bench model's price: a row of the bench's own (synthetic), so both runs have a figure to compare. */
const BENCH_PRICE: ModelPrice = {
  provider: 'anthropic',
  model: 'claude-bench',
  inputPerMTok: 3,
  outputPerMTok: 15,
  source: 'synthetic: the bench’s own row, not a provider’s price',
  asOf: '2026-12-03',
};

/**
 * The same comparison as `measureFallbackCost`, on the path an application takes: the Anthropic adapter
 * through `@anthropic-ai/sdk`, answered at once by an in-process `fetch` (no socket, no other process), with
 * an OpenAI Responses model as the spare that is never asked. A turn here carries what every real turn
 * carries (the adapter's request, the SDK's serialising and parsing): the list must add nothing measurable.
 */
export async function measureFallbackOverSdk(options: {
  readonly rounds: number;
  readonly turns?: number;
}): Promise<FallbackCost> {
  const turns = options.turns ?? 100;
  const [anthropic, , responses] = WIRE_ADAPTERS;
  if (anthropic?.protocol !== 'anthropic' || responses?.protocol !== 'openai-responses') {
    throw new Error('the wire adapters are not in the order this measure expects');
  }
  const catalogue = createCatalogue([orderToolDefinition(WIRE_TOOL)]);
  const session = createSession({ id: 'bench', humanId: 'bench', rights: [ORDERS_RIGHT] });
  const messages: Message[] = [{ role: 'user', content: 'Which of my orders are still open?' }];
  return compareOneAndList('Anthropic adapter and SDK, in-process fetch', turns, options.rounds, async (mode) => {
    const primaryFetch = createInstantFetch(WIRE_TOOL, 1);
    const spareFetch = createInstantFetch(WIRE_TOOL, 1);
    return anthropic.withFetch(primaryFetch.fetch, (model) =>
      responses.withFetch(spareFetch.fetch, async (spare) => {
        const start = process.cpuUsage();
        const result = await runLoop({
          model: mode === 'one' ? model : [model, spare],
          catalogue,
          session,
          messages,
          maxTurns: turns,
          prices: [BENCH_PRICE],
        });
        const usPerTurn = cpuUsPerTurn(start, turns);
        if (result.turns.length !== turns) throw new Error(`the run stopped after ${result.turns.length} turns`);
        if (spareFetch.answered() > 0) throw new Error('the spare model was asked: the list fell over');
        return { result, usPerTurn };
      }),
    );
  });
}
