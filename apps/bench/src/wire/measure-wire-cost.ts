import { collectGarbage } from '../measure/collect-garbage.js';
import { intervals, mean } from '../measure/stats.js';
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
  /** Extra step cost per extra KB of request body, from the first to the last 10 steps. */
  readonly usPerKb: number;
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
    // The adapters alternate round by round; each figure is the best of the rounds, the least disturbed
    // by whatever else the two shared cores were doing.
    const runs = new Map<string, AdapterWireCost[]>();
    for (let round = 0; round < rounds; round += 1) {
      for (const { adapter, model } of models) {
        collectGarbage();
        const { stamps } = await playConversation(model, steps);
        const sizes = await server.takeSizes();
        const list = runs.get(adapter.label) ?? [];
        list.push(wireCostOf(adapter.label, adapter.body, stamps, sizes, steps, calls));
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
  stamps: readonly number[],
  sizes: readonly number[],
  steps: number,
  calls: number,
): AdapterWireCost {
  const gaps = intervals(stamps);
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
    usPerKb: lastBytes > firstBytes ? (last10Us - first10Us) / ((lastBytes - firstBytes) / 1024) : 0,
  };
}

function bestOf(runs: readonly AdapterWireCost[]): AdapterWireCost {
  const [first, ...rest] = runs;
  if (first === undefined) throw new Error('no wire run');
  const first10Us = Math.min(first.first10Us, ...rest.map((run) => run.first10Us));
  const last10Us = Math.min(first.last10Us, ...rest.map((run) => run.last10Us));
  const span = (first.lastBodyBytes - first.firstBodyBytes) / 1024;
  return { ...first, first10Us, last10Us, usPerKb: span > 0 ? (last10Us - first10Us) / span : 0 };
}
