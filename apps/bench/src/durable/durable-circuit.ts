import type { Catalogue } from '@toolcircuit/core';
import { APPROVAL_WORKLOAD_RIGHTS, approvalWorkloadCatalogue } from '@toolcircuit/testing';
import type pg from 'pg';

/** The durable-run workload's side effects: one row per call in the tools' own table, on the same server. */
export const EFFECTS_DDL = `CREATE TABLE IF NOT EXISTS tool_effects (
  run_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL, worker text NOT NULL,
  at timestamptz NOT NULL DEFAULT now())`;

export const SESSION_DATA = { id: 'bench-session', humanId: 'bench-human', rights: [...APPROVAL_WORKLOAD_RIGHTS] };

export function durableCatalogue(pool: pg.Pool, worker: string): Catalogue {
  return approvalWorkloadCatalogue(async (tool, context) => {
    await pool.query('INSERT INTO tool_effects (run_id, call_id, tool, worker) VALUES ($1, $2, $3, $4)', [
      context.runId,
      context.callId,
      tool,
      worker,
    ]);
  });
}
