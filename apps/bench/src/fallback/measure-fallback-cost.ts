import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type ModelPrice,
  runLoop,
} from '@toolcircuit/core';
import { oneCallATurnModel } from '../scenario/one-call-a-turn-model.js';
import { compareOneAndList, cpuUsPerTurn, type FallbackCost } from './one-or-list.js';

/** The in-process model's price: a row of the bench's own, so both runs have a figure to compare. */
const BENCH_PRICE: ModelPrice = {
  provider: 'bench',
  model: 'in-process',
  inputPerMTok: 3,
  outputPerMTok: 15,
  source: 'synthetic: the bench’s own row, not a provider’s price',
  asOf: '2026-12-03',
};

/**
 * Times a run on one model against the same run on a fallback list whose first model never fails (the
 * second is never asked): `turns` turns of one lookup each through `runLoop` and an in-process model, so
 * what is measured is the loop's work and the list's own. Also keeps what each run cost (`LoopResult.cost`):
 * the list must not change it.
 */
export async function measureFallbackCost(options: {
  readonly rounds: number;
  readonly turns?: number;
}): Promise<FallbackCost> {
  const turns = options.turns ?? 200;
  const catalogue = createCatalogue([
    defineTool({
      name: 'lookup',
      description: 'Returns one record.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      right: everySession,
      run: ({ n }) => `record ${n}`,
    }),
  ]);
  const session = createSession({ id: 'bench', humanId: 'bench', rights: [] });
  const messages: Message[] = [{ role: 'user', content: 'Look up every record.' }];
  return compareOneAndList('in-process model', turns, options.rounds, async (mode) => {
    const model = lookupModel(turns);
    const spare = lookupModel(turns);
    const start = process.cpuUsage();
    const result = await runLoop({
      model: mode === 'one' ? model : [model, spare],
      catalogue,
      session,
      messages,
      maxTurns: turns + 1,
      prices: [BENCH_PRICE],
    });
    const usPerTurn = cpuUsPerTurn(start, turns);
    if (spare.asked() > 0) throw new Error('the spare model was asked: the list fell over');
    return { result, usPerTurn };
  });
}

/** Calls `lookup` once a turn for `turns` turns, then answers. */
function lookupModel(turns: number) {
  const usage = { inputTokens: 1_000, outputTokens: 50, totalTokens: 1_050 };
  return oneCallATurnModel({ turns, toolName: 'lookup', inputOf: (n) => ({ n }), usage });
}
