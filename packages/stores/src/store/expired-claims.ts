import type { ExpiredClaim } from './durable-store.js';
import type { RunRow } from './store-backend.js';

/** The `resuming` rows whose lease ended before `before`, oldest lease first (the memory store's query). */
export function expiredClaimsOf(rows: Iterable<RunRow>, before: string, limit: number): ExpiredClaim[] {
  const expired: ExpiredClaim[] = [];
  for (const row of rows) {
    if (row.status !== 'resuming' || row.leaseExpiresAt === null || !(row.leaseExpiresAt < before)) continue;
    expired.push({
      runId: row.runId,
      sessionId: row.sessionId,
      humanId: row.humanId,
      workerId: row.claimWorker ?? '',
      leaseExpiresAt: row.leaseExpiresAt,
    });
  }
  expired.sort((a, b) =>
    a.leaseExpiresAt === b.leaseExpiresAt ? (a.runId < b.runId ? -1 : 1) : a.leaseExpiresAt < b.leaseExpiresAt ? -1 : 1,
  );
  return expired.slice(0, limit);
}
