import { randomUUID } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { DurableEngine, DurableRunOutcome } from '../engine/durable-run.js';

/**
 * The engine seam on DBOS, for the workflow being run: steps are `DBOS.runStep` (recorded in the system
 * database), the previous segment's outcome is read through a workflow handle (a durable read), and a
 * paused run ends its workflow: the approval enqueues the next one, so waiting holds no queue slot and no
 * worker, and the run continues on whichever worker dequeues it.
 */
export function dbosEngine(): DurableEngine {
  const segment = DBOS.workflowID;
  if (segment === undefined) throw new Error('dbosEngine() is called inside a DBOS workflow only.');
  return {
    segment,
    steps: {
      // Fresh for each execution of the workflow function: a replay after a crash gets a new one.
      executionId: randomUUID(),
      // DBOS's cancel signal fires when the workflow is cancelled or passes its deadline (within a second).
      run: (name, fn) => DBOS.runStep(() => fn(DBOS.stepStatus?.cancelSignal), { name }),
    },
    previousOutcome: (previous) => DBOS.retrieveWorkflow<DurableRunOutcome>(previous).getResult(),
  };
}
