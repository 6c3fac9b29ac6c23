import { DBOS } from '@dbos-inc/dbos-sdk';
// DBOS's own recovery of an executor's pending workflows (what `DBOS.launch()` runs for its own executor
// id), reached through the SDK's published `internal/*` entry point: the public API recovers only the
// launching executor's workflows.
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { ExecutorLeaseError } from '../errors/executor-lease-error.js';

export interface ExecutorLeaseOptions {
  /** How often this worker records in the system database that it is alive. Default 5 seconds. */
  readonly heartbeatMs?: number;
  /**
   * A worker not heard from for this long is taken as gone, and its pending runs are recovered by a live
   * worker. Keep it several heartbeats, and above the longest pause a live worker may have (a stalled event
   * loop, a GC pause): a worker taken for gone while alive loses its runs to another, which DBOS fences (its
   * next step fails) and which reports a call it had started as "outcome unknown". Default 30 seconds.
   */
  readonly leaseMs?: number;
  /** How often to look for gone workers. Default: `heartbeatMs`. */
  readonly sweepMs?: number;
  /** Told of each gone worker whose pending workflows this worker handed back to their queues. */
  readonly onRecovered?: (executorId: string, workflowIds: readonly string[]) => void;
  /** A heartbeat or a sweep failed (the database is away): tried again at the next tick. Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

export interface ExecutorLease {
  /** Stops the heartbeat and the sweep (call it before `DBOS.shutdown()`); this worker's row is removed. */
  stop(): Promise<void>;
}

/** The table the leases live in, in DBOS's own schema of the system database. */
const TABLE = 'toolcircuit_executor_leases';

/** The database's clock, in epoch milliseconds: every worker compares against the same clock. */
const NOW_MS = '(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint';

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Starts this worker's lease in the pool: a heartbeat row in the system database, renewed every
 * `heartbeatMs`, and a sweep that finds the workers whose row is older than `leaseMs` (a crashed process,
 * a machine gone for good, a fleet scaled down) and hands their pending workflows back to their queues with
 * DBOS's own recovery, where the live workers dequeue them. Call it in every worker, right after
 * `DBOS.launch()` and with a unique, stable `executorID` each (DBOS's default `local` is refused).
 *
 * Each workflow is handed back by one atomic update (only while it is still pending on the gone executor),
 * so of several sweeping workers one recovers it and the queue gives it to one worker; the recovered run
 * replays its recorded steps, and a tool call that had started on the gone worker without a recorded result
 * is reported "outcome unknown", never run again, exactly as when a worker restarts under its own id.
 * Recovery covers workflows of this worker's application version, as DBOS's own recovery does.
 */
export async function startExecutorLease(options: ExecutorLeaseOptions = {}): Promise<ExecutorLease> {
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const leaseMs = options.leaseMs ?? 30_000;
  const sweepMs = options.sweepMs ?? heartbeatMs;
  const executor = DBOSExecutor.globalInstance;
  if (executor === undefined) {
    throw new ExecutorLeaseError(
      'DBOS is not launched in this process: call startExecutorLease() after DBOS.launch().',
    );
  }
  const executorId = DBOS.executorID;
  if (executorId === 'local') {
    throw new ExecutorLeaseError(
      'this worker runs under DBOS\'s default executor id "local", which every worker shares. Give each worker a ' +
        'unique, stable id: DBOS.setConfig({ ..., executorID }).',
    );
  }
  if (!(leaseMs > heartbeatMs)) {
    throw new ExecutorLeaseError(
      `leaseMs (${leaseMs}) must be longer than heartbeatMs (${heartbeatMs}), by several heartbeats.`,
    );
  }
  const version = DBOS.applicationVersion;
  const database = executor.systemDatabase as unknown as { pool: Queryable; schemaName: string };
  const pool = database.pool;
  const table = `"${database.schemaName.replaceAll('"', '""')}".${TABLE}`;

  await createTable(pool, table);
  const heartbeat = () =>
    pool.query(
      `INSERT INTO ${table} (executor_id, application_version, last_seen_ms) VALUES ($1, $2, ${NOW_MS}) ` +
        'ON CONFLICT (executor_id) DO UPDATE SET application_version = EXCLUDED.application_version, ' +
        'last_seen_ms = EXCLUDED.last_seen_ms',
      [executorId, version],
    );
  await heartbeat();

  const sweep = async () => {
    const { rows } = await pool.query(
      `SELECT executor_id, application_version FROM ${table} WHERE executor_id <> $1 AND last_seen_ms < ${NOW_MS} - $2`,
      [executorId, leaseMs],
    );
    for (const row of rows) {
      const gone = String(row.executor_id);
      const handles = await executor.recoverPendingWorkflows([gone]);
      if (handles.length > 0)
        options.onRecovered?.(
          gone,
          handles.map((handle) => handle.workflowID),
        );
      // Every pending workflow of its version is back on a queue: nothing is left to recover under its id.
      // One of another version stays listed, for a worker of that version to recover.
      if (String(row.application_version) === version) {
        await pool.query(`DELETE FROM ${table} WHERE executor_id = $1 AND last_seen_ms < ${NOW_MS} - $2`, [
          gone,
          leaseMs,
        ]);
      }
    }
  };

  const loops = [every(heartbeatMs, heartbeat, options.onError), every(sweepMs, sweep, options.onError)];
  return {
    async stop() {
      await Promise.all(loops.map((stop) => stop()));
      await pool
        .query(`DELETE FROM ${table} WHERE executor_id = $1`, [executorId])
        .catch(options.onError ?? (() => undefined));
    },
  };
}

/** Created once by whichever worker gets there first (an advisory lock keeps concurrent creations apart). */
async function createTable(pool: Queryable, table: string): Promise<void> {
  await pool.query(
    `DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('${TABLE}')); ` +
      `CREATE TABLE IF NOT EXISTS ${table} (executor_id TEXT PRIMARY KEY, application_version TEXT NOT NULL, ` +
      'last_seen_ms BIGINT NOT NULL); END $$',
  );
}

/** Runs `work` every `intervalMs`, one at a time; returns how to stop it (waiting for a run in progress). */
function every(
  intervalMs: number,
  work: () => Promise<unknown>,
  onError?: (error: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = work().then(
      () => undefined,
      (error: unknown) => onError?.(error),
    );
    void running.then(() => {
      if (stopped) return;
      timer = setTimeout(tick, intervalMs);
      timer.unref?.();
    });
  };
  timer = setTimeout(tick, intervalMs);
  timer.unref?.();
  return async () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await running;
  };
}
