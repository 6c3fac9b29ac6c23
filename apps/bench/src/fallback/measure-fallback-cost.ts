import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type LoopResult,
  type Message,
  type Model,
  type ModelPrice,
  type ModelRequest,
  type ModelTurn,
  runLoop,
} from '@toolcircuit/core';
import { collectGarbage } from '../measure/collect-garbage.js';
import { median } from '../measure/stats.js';

/** What a fallback list that never fails costs, against the same run on its first model alone. */
export interface FallbackCost {
  readonly turns: number;
  readonly rounds: number;
  /** CPU µs per turn of the run on one model (in-process model: no adapter, no HTTP). */
  readonly oneUs: number;
  /** CPU µs per turn of the same run given `[model, spare]`, the spare never asked. */
  readonly listUs: number;
  /** The two runs' `LoopResult.cost` totals, in US dollars (the same turns at the same price: equal). */
  readonly oneUsd: number | 'unknown';
  readonly listUsd: number | 'unknown';
  readonly samples: { readonly one: number[]; readonly list: number[] };
}

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
 * second is never asked): `turns` turns of one lookup each through `runLoop` and an in-process model. Rounds
 * alternate the two, a GC before each; CPU time of this process, medians. Also keeps what each run cost
 * (`LoopResult.cost`): the list must not change it.
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
  let last: { one?: LoopResult; list?: LoopResult } = {};
  const play = async (mode: 'one' | 'list'): Promise<number> => {
    const model = inProcessModel(turns);
    const spare = inProcessModel(turns);
    collectGarbage();
    const start = process.cpuUsage();
    const result = await runLoop({
      model: mode === 'one' ? model : [model, spare],
      catalogue,
      session,
      messages,
      maxTurns: turns + 1,
      prices: [BENCH_PRICE],
    });
    const used = process.cpuUsage(start);
    if (spare.asked() > 0) throw new Error('the spare model was asked: the list fell over');
    last = { ...last, [mode]: result };
    return (used.user + used.system) / turns;
  };
  // One untimed round: compiled code and warm caches for both.
  for (const mode of ['one', 'list'] as const) await play(mode);
  const samples = { one: [] as number[], list: [] as number[] };
  for (let round = 0; round < options.rounds; round += 1) {
    for (const mode of round % 2 === 0 ? (['one', 'list'] as const) : (['list', 'one'] as const)) {
      samples[mode].push(await play(mode));
    }
  }
  return {
    turns,
    rounds: options.rounds,
    oneUs: median(samples.one),
    listUs: median(samples.list),
    oneUsd: last.one?.cost.total.usd ?? 'unknown',
    listUsd: last.list?.cost.total.usd ?? 'unknown',
    samples,
  };
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
