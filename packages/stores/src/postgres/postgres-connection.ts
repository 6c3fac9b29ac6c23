import type pg from 'pg';
import type { SqlConnection, SqlSession, SqlValue } from '../sql/sql-connection.js';
import { quoteIdentifier } from '../sql/sql-connection.js';

/** One pool, one schema. Each transaction takes its own pooled connection, so workers run in parallel. */
export class PostgresConnection implements SqlConnection {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #ownsPool: boolean;

  constructor(pool: pg.Pool, schema: string, ownsPool: boolean) {
    this.#pool = pool;
    this.#schema = schema;
    this.#ownsPool = ownsPool;
  }

  table(name: string): string {
    return `${quoteIdentifier(this.#schema)}.${quoteIdentifier(name)}`;
  }

  async transaction<T>(
    mode: 'read' | 'write',
    work: (session: SqlSession, opened: Record<string, unknown>[]) => Promise<T>,
    opening?: string,
  ): Promise<T> {
    const client = await this.#pool.connect();
    // A connection that failed outside the transaction's own statements is in an unknown state: it is
    // dropped instead of going back to the pool.
    let discard: Error | undefined;
    try {
      // Reads see one snapshot; writes use READ COMMITTED behind the head-row lock the backend takes
      // first, so each of their statements sees every write committed before the lock was granted.
      const begin = mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
      let opened: Record<string, unknown>[] = [];
      if (opening === undefined) {
        await client.query(begin).catch((error: unknown) => {
          discard = asError(error);
          throw error;
        });
      }
      try {
        if (opening !== undefined) {
          // One round trip for both (the simple protocol takes several statements); their results come
          // back as a list. Should the opening statement fail, the transaction is rolled back below.
          const results = (await client.query(`${begin}; ${opening}`)) as unknown as pg.QueryResult[];
          opened = (results[1]?.rows ?? []) as Record<string, unknown>[];
        }
        const value = await work(sessionOf(client), opened);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          discard = asError(rollbackError);
        });
        throw error;
      }
    } finally {
      client.release(discard);
    }
  }

  async single(sql: string, params: readonly SqlValue[]): Promise<Record<string, unknown>[]> {
    return (await this.#pool.query(numbered(sql), [...params])).rows as Record<string, unknown>[];
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}

function sessionOf(client: pg.PoolClient): SqlSession {
  return {
    all: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rows as Record<string, unknown>[],
    run: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rowCount ?? 0,
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** `?` → `$1`, `$2`…: the stores write portable statements and never put a `?` inside a literal. */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => {
    index += 1;
    return `$${index}`;
  });
}
