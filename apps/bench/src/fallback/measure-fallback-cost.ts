import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type Model,
  type ModelPrice,
  type ModelRequest,
  type ModelTurn,
  runLoop,
} from '@toolcircuit/core';
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
    const model = inProcessModel(turns);
    const spare = inProcessModel(turns);
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

/** Calls `lookup` once a turn for `turns` turns, then answers; says how many requests it was asked. */
function inProcessModel(turns: number): Model & { asked(): number } {
  let served = 0;
  const usage = { inputTokens: 1_000, outputTokens: 50, totalTokens: 1_050 };
  return {
    provider: 'bench',
    modelId: 'in-process',
    asked: () => served,
    generate: async (_request: ModelRequest): Promise<ModelTurn> => {
      served += 1;
      if (served > turns) {
        return {
          content: [{ type: 'text', text: 'done' }],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage,
        };
      }
      return {
        content: [{ type: 'tool_call', id: `call_${served}`, name: 'lookup', input: { n: served } }],
        stopReason: { unified: 'tool_calls', raw: 'tool_use' },
        usage,
      };
    },
  };
}
