import type { Catalogue } from '@toolcircuit/core';
import { durableCatalogue } from '../durable/durable-world.js';

/** The bearer token the bench's client sends; the server's `authenticate` accepts only it. */
export const BENCH_TOKEN = 'bench-token';

/** What the tool saw: how many times each run executed it, and when (epoch ms) its first execution began. */
export interface ToolLedger {
  readonly executions: Map<string, number>;
  readonly startedAt: Map<string, number>;
}

/** Epoch milliseconds with sub-millisecond precision, comparable across processes on one machine. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * The durable phase's irreversible transfer (it answers in a later macrotask), counting its executions
 * per run and stamping when each started: what says nothing ran twice, and when a decision reached the tool.
 */
export function ledgerCatalogue(ledger: ToolLedger): Catalogue {
  return durableCatalogue({
    irreversible: true,
    onRun: ({ runId }) => {
      if (!ledger.startedAt.has(runId)) ledger.startedAt.set(runId, epochNow());
      ledger.executions.set(runId, (ledger.executions.get(runId) ?? 0) + 1);
    },
  });
}
