import type { Session } from '@toolcircuit/core';
import type { DurableStore, RunRecord } from '@toolcircuit/stores';
import { HttpProblem } from '../http/http-problem.js';

/** The run, if it is the caller's: another human's run answers exactly like a run that does not exist. */
export async function ownedRun(store: DurableStore, runId: string, session: Session): Promise<RunRecord> {
  const record = await store.getRun(runId);
  if (record === undefined || record.humanId !== session.humanId) {
    throw new HttpProblem(404, 'run_not_found', 'there is no such run.');
  }
  return record;
}
