import { collectGarbage } from '../measure/collect-garbage.js';
import { intervals, mean, median } from '../measure/stats.js';
import { measureStepCosts, type StepCost } from './measure-step-costs.js';
import { playConversation, WIRE_TOOL } from './play-conversation.js';
import { startInstantServer } from './start-instant-server.js';
import type { StepTiming } from './time-steps.js';
import { type BodyHandling, WIRE_ADAPTERS } from './wire-adapters.js';

export interface AdapterWireCost {
  readonly adapter: string;
  /** How the adapter makes its request body (a fact of its code). */
  readonly body: BodyHandling;
  readonly steps: number;
  readonly calls: number;
  /** Mean step cost (adapter build + SDK serialise + loopback HTTP + parse + circuit) over the first 10 steps. */
  readonly first10Us: number;
  readonly last10Us: number;
  readonly firstBodyBytes: number;
  readonly lastBodyBytes: number;
  /**
   * Extra step cost per extra KB of request body, in CPU time of this process (the adapter, its SDK, the
   * socket's system calls; not the server's, which runs in another process): in each round the
   * least-squares slope of every step's CPU time against its body size, then the median over the rounds.
   */
  readonly usPerKb: number;
  /** That slope in each round, in the order the rounds ran. */
  readonly roundUsPerKb: readonly number[];
}

export interface WireCostReport {
  readonly adapters: readonly AdapterWireCost[];
  /** Per-step request cost without a socket, one new step on a cached history (see measureStepCosts). */
  readonly steps: readonly StepCost[];
}

/**
 * The wire cost: each real adapter, through its official SDK, against an instant server on 127.0.0.1
 * (another process), for `steps` steps of `calls` calls. The step cost at the start and at the end of
 * the conversation shows whether the step's cost grows with the history; the body sizes show how much is
 * re-sent. Then each adapter's request cost per step without the socket, at several history lengths.
 */
export async function measureWireCost(
  steps: number,
  calls: number,
  historyPoints: readonly number[],
  rounds: number,
  timing: StepTiming,
): Promise<WireCostReport> {
  const server = await startInstantServer(WIRE_TOOL, calls);
  let adapters: AdapterWireCost[];
  try {
    const models = WIRE_ADAPTERS.map((adapter) => ({ adapter, model: adapter.overServer(server.url) }));
    for (const { model } of models) await playConversation(model, Math.min(5, steps)); // warm-up: JIT, keep-alive socket
    await server.takeSizes();
    // The adapters alternate round by round. The first and last 10 steps (wall time) are the best of the
    // rounds; the cost per KB is fitted on CPU time over all of a round's steps (the two ends alone swing
    // with one disturbed step) and the median of the rounds is kept.
    const runs = new Map<string, AdapterWireCost[]>();
    for (let round = 0; round < rounds; round += 1) {
      for (const { adapter, model } of models) {
        collectGarbage();
        const { stamps, cpuStamps } = await playConversation(model, steps);
        const sizes = await server.takeSizes();
        const list = runs.get(adapter.label) ?? [];
        list.push(wireCostOf(adapter.label, adapter.body, { stamps, cpuStamps }, sizes, steps, calls));
        runs.set(adapter.label, list);
      }
    }
    adapters = [...runs.values()].map((list) => bestOf(list));
  } finally {
    await server.close();
  }
  // After the server run: the Google rows put an instant fetch in place of the global one meanwhile.
  return { adapters, steps: await measureStepCosts(calls, historyPoints, timing) };
}

function wireCostOf(
  adapter: string,
  body: BodyHandling,
  { stamps, cpuStamps }: { readonly stamps: readonly number[]; readonly cpuStamps: readonly number[] },
  sizes: readonly number[],
  steps: number,
  calls: number,
): AdapterWireCost {
  const gaps = intervals(stamps);
  // Gap i runs from request i to request i + 1: it sends body i, so it pays for body i's bytes. The
  // slope is taken on CPU time: wall time on shared cores also counts whoever else ran meanwhile.
  const slope = slopeUsPerKb(intervals(cpuStamps), sizes);
  const edge = Math.min(10, gaps.length);
  const first10Us = mean(gaps.slice(0, edge)) * 1000;
  const last10Us = mean(gaps.slice(gaps.length - edge)) * 1000;
  const firstBytes = mean(sizes.slice(0, edge));
  const lastBytes = mean(sizes.slice(sizes.length - edge));
  return {
    adapter,
    body,
    steps,
    calls,
    first10Us,
    last10Us,
    firstBodyBytes: sizes[0] ?? 0,
    lastBodyBytes: sizes.at(-1) ?? 0,
    usPerKb: lastBytes > firstBytes ? slope : 0,
    roundUsPerKb: [slope],
  };
}

/** Least-squares slope of the gaps (ms) against the body sizes (bytes) of the same steps, in µs per KB. */
export function slopeUsPerKb(gapsMs: readonly number[], sizes: readonly number[]): number {
  const count = Math.min(gapsMs.length, sizes.length);
  if (count < 2) return 0;
  const xs = sizes.slice(0, count).map((bytes) => bytes / 1024);
  const ys = gapsMs.slice(0, count).map((ms) => ms * 1000);
  const meanX = mean(xs);
  const meanY = mean(ys);
  let covariance = 0;
  let variance = 0;
  for (let index = 0; index < count; index += 1) {
    const dx = (xs[index] ?? meanX) - meanX;
    covariance += dx * ((ys[index] ?? meanY) - meanY);
    variance += dx * dx;
  }
  return variance > 0 ? covariance / variance : 0;
}

function bestOf(runs: readonly AdapterWireCost[]): AdapterWireCost {
  const [first, ...rest] = runs;
  if (first === undefined) throw new Error('no wire run');
  const first10Us = Math.min(first.first10Us, ...rest.map((run) => run.first10Us));
  const last10Us = Math.min(first.last10Us, ...rest.map((run) => run.last10Us));
  const roundUsPerKb = runs.flatMap((run) => run.roundUsPerKb);
  return { ...first, first10Us, last10Us, usPerKb: median(roundUsPerKb), roundUsPerKb };
}
