import type { StoredRunEvent } from '../store/durable-store.js';
import type { SqlConnection } from './sql-connection.js';

/** Rows per INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535 (4 per row). */
const ROWS_PER_STATEMENT = 500;

/**
 * Appends a run's events (one multi-row INSERT per 500) and, with `keep`, drops its oldest over it, in one write
 * transaction of its own: it takes no run row and no journal head, so it never waits for a run's claim.
 */
export function appendRunEvents(
  connection: SqlConnection,
  runId: string,
  events: readonly StoredRunEvent[],
  keep: number | undefined,
): Promise<void> {
  const table = connection.table('run_events');
  return connection.transaction('write', async (session) => {
    for (let start = 0; start < events.length; start += ROWS_PER_STATEMENT) {
      const chunk = events.slice(start, start + ROWS_PER_STATEMENT);
      await session.run(
        `INSERT INTO ${table} (run_id, seq, type, data) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((event) => [runId, event.seq, event.type, event.data]),
      );
    }
    if (keep === undefined) return;
    // The seq of the oldest event to keep is the keep-th from the newest; below it, the rows go.
    await session.run(
      `DELETE FROM ${table} WHERE run_id = ? AND seq < ` +
        `(SELECT seq FROM ${table} WHERE run_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      [runId, runId, keep - 1],
    );
  });
}

/** The run's events above `afterSeq`, in seq order, at most `limit`. */
export async function readRunEvents(
  connection: SqlConnection,
  runId: string,
  afterSeq: number,
  limit: number,
): Promise<StoredRunEvent[]> {
  const table = connection.table('run_events');
  const rows = await connection.transaction('read', (session) =>
    session.all(`SELECT seq, type, data FROM ${table} WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`, [
      runId,
      afterSeq,
      limit,
    ]),
  );
  return rows.map((row) => ({ seq: Number(row.seq), type: String(row.type), data: String(row.data) }));
}
