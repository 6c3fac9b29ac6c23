import type { ExpiredClaim } from '../store/durable-store.js';
import type { SqlConnection } from './sql-connection.js';

/**
 * The `resuming` runs whose lease ended before `before`. Leases are ISO-8601 UTC text of one fixed shape
 * (`toISOString()`), so they order as text; PostgreSQL compares them byte by byte (`COLLATE "C"`), not by
 * the database's locale. Reads only the columns a sweep needs, never a run's stored state.
 */
export async function selectExpiredClaims(
  connection: SqlConnection,
  before: string,
  limit: number,
): Promise<ExpiredClaim[]> {
  const collate = connection.dialect === 'postgres' ? ' COLLATE "C"' : '';
  const sql =
    `SELECT run_id, session_id, human_id, claim_worker, lease_expires_at FROM ${connection.table('runs')} ` +
    `WHERE status = 'resuming' AND lease_expires_at IS NOT NULL AND lease_expires_at${collate} < ?${collate} ` +
    `ORDER BY lease_expires_at${collate}, run_id LIMIT ?`;
  const rows = await connection.transaction('read', (session) => session.all(sql, [before, limit]));
  return rows.map((row) => ({
    runId: String(row.run_id),
    sessionId: String(row.session_id),
    humanId: String(row.human_id),
    workerId: row.claim_worker === null ? '' : String(row.claim_worker),
    leaseExpiresAt: String(row.lease_expires_at),
  }));
}
