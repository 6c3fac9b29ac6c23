// The circuit every process of the pool tests runs: the testing package's approval workload (a stateless
// scripted model, notes then an irreversible payment) with tools whose side effects land in a table of
// their own, so that how often each call ran is observed, not assumed.
import { APPROVAL_WORKLOAD_RIGHTS, approvalWorkloadCatalogue, approvalWorkloadModel } from '@toolcircuit/testing';

/** The tools' own table: one row per execution, nothing unique, so a second execution shows. */
export const EFFECTS_DDL = `CREATE TABLE IF NOT EXISTS tool_effects (
  run_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL, worker text NOT NULL,
  at timestamptz NOT NULL DEFAULT now())`;

export const poolModel = approvalWorkloadModel;

/**
 * `pool` is a pg Pool on the database holding `tool_effects`; `delayMs` (a number, or a function of the
 * call's context) keeps a call in flight a while, and ends early if the call's signal fires, writing an `aborted:<tool>` row instead of its effect.
 */
export function poolCatalogue(pool, worker, delayMs) {
  return approvalWorkloadCatalogue(async (tool, context) => {
    const wait = typeof delayMs === 'function' ? delayMs(context) : delayMs;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        // Written so that a test sees the call was stopped, not merely slow.
        pool
          .query('INSERT INTO tool_effects (run_id, call_id, tool, worker) VALUES ($1, $2, $3, $4)', [
            context.runId,
            context.callId,
            `aborted:${tool}`,
            worker,
          ])
          .finally(() => reject(context.signal.reason));
      });
    });
    await pool.query('INSERT INTO tool_effects (run_id, call_id, tool, worker) VALUES ($1, $2, $3, $4)', [
      context.runId,
      context.callId,
      tool,
      worker,
    ]);
  });
}

export const POOL_SESSION = { id: 'session-pool', humanId: 'alice', rights: [...APPROVAL_WORKLOAD_RIGHTS] };
