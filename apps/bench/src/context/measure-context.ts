import { loadavg } from 'node:os';
import { SDK_BACKENDS } from '../wire/sdk-backends.js';
import { measurePolicyCost, type PolicyCost } from './measure-policy-cost.js';
import { LONG_RUN_BUDGET, LONG_RUN_TURNS, playLongRun } from './play-long-run.js';

/** One backend's long run, as figures. */
export interface LongRunRow {
  readonly backend: string;
  readonly turns: number;
  /** The largest request, in o200k_base tokens as the replay server counted its body. */
  readonly maxTokens: number;
  readonly maxBytes: number;
  /** Requests above the budget (the goal: none). */
  readonly overBudget: number;
  /** The policy's estimate of the last request had nothing been cleared. */
  readonly unshapedTokens: number;
  /** Requests whose clearing grew (each one a new request prefix for a prompt cache). */
  readonly clearings: number;
  readonly cpuMs: number;
  readonly wallMs: number;
}

export interface ContextFigures {
  readonly budget: number;
  readonly runs: readonly LongRunRow[];
  readonly cost: PolicyCost;
  /** The 1-minute load average before and after the phase. */
  readonly load: string;
}

/** The `context` phase: the long run on every backend, then the policy's own cost per turn. */
export async function measureContext(options: {
  readonly quick: boolean;
  readonly log: (line: string) => void;
}): Promise<ContextFigures> {
  const load = () => (loadavg()[0] ?? 0).toFixed(1);
  const before = load();
  const runs: LongRunRow[] = [];
  for (const backend of SDK_BACKENDS) {
    options.log(`  ${backend.label}: ${LONG_RUN_TURNS} turns`);
    const run = await playLongRun(backend);
    const cleared = run.reports.map((report) => report.clearedResults);
    runs.push({
      backend: backend.label,
      turns: LONG_RUN_TURNS,
      maxTokens: Math.max(...run.requestTokens),
      maxBytes: Math.max(...run.requestBytes),
      overBudget: run.requestTokens.filter((tokens) => tokens > LONG_RUN_BUDGET).length,
      unshapedTokens: run.reports.at(-1)?.fullTokens ?? 0,
      clearings: cleared.filter((count, index) => index > 0 && count > (cleared[index - 1] ?? 0)).length,
      cpuMs: run.cpuMs,
      wallMs: run.wallMs,
    });
  }
  options.log('  the policy alone, in-process model');
  const cost = await measurePolicyCost({ rounds: options.quick ? 3 : 9 });
  return { budget: LONG_RUN_BUDGET, runs, cost, load: `${before} → ${load()}` };
}
