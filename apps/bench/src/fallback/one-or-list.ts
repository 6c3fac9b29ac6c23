import type { LoopResult } from '@toolcircuit/core';
import { collectGarbage } from '../measure/collect-garbage.js';
import { median } from '../measure/stats.js';

/** What a fallback list that never fails costs, against the same run on its first model alone. */
export interface FallbackCost {
  /** How the model answers: in this process (the loop's and the list's own cost), or through an adapter. */
  readonly path: string;
  readonly turns: number;
  readonly rounds: number;
  /** CPU µs per turn of the run on one model. */
  readonly oneUs: number;
  /** CPU µs per turn of the same run given `[model, spare]`, the spare never asked. */
  readonly listUs: number;
  /**
   * The median of each round's list / one-model ratio: the two runs of a round are timed back to back, so a
   * machine whose load or compiled code drifts over the rounds moves both alike.
   */
  readonly pairedRatio: number;
  /** The two runs' `LoopResult.cost` totals, in US dollars (the same turns at the same price: equal). */
  readonly oneUsd: number | 'unknown';
  readonly listUsd: number | 'unknown';
  readonly samples: { readonly one: number[]; readonly list: number[] };
}

const WARM_ROUNDS = 10;

/** One run of `turns` turns, on one model or on the list: its result and the CPU µs it took, per turn. */
export type PlayRun = (mode: 'one' | 'list') => Promise<{ readonly result: LoopResult; readonly usPerTurn: number }>;

/**
 * Times `play` on one model and on the list alternately (which goes first swaps each round), a GC before
 * each run, after untimed rounds of each (the SDK path's code is still being compiled for several rounds):
 * CPU time of this process, medians.
 */
export async function compareOneAndList(
  path: string,
  turns: number,
  rounds: number,
  play: PlayRun,
): Promise<FallbackCost> {
  const last: { one?: LoopResult; list?: LoopResult } = {};
  const timed = async (mode: 'one' | 'list'): Promise<number> => {
    collectGarbage();
    const { result, usPerTurn } = await play(mode);
    last[mode] = result;
    return usPerTurn;
  };
  for (let warm = 0; warm < WARM_ROUNDS; warm += 1) for (const mode of ['one', 'list'] as const) await timed(mode);
  const samples = { one: [] as number[], list: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of round % 2 === 0 ? (['one', 'list'] as const) : (['list', 'one'] as const)) {
      samples[mode].push(await timed(mode));
    }
  }
  return {
    path,
    turns,
    rounds,
    oneUs: median(samples.one),
    listUs: median(samples.list),
    pairedRatio: median(samples.list.map((list, round) => list / (samples.one[round] as number))),
    oneUsd: last.one?.cost.total.usd ?? 'unknown',
    listUsd: last.list?.cost.total.usd ?? 'unknown',
    samples,
  };
}

/** CPU µs per turn since `start` (`process.cpuUsage()`). */
export function cpuUsPerTurn(start: NodeJS.CpuUsage, turns: number): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / turns;
}
