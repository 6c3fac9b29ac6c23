/** What the SQL stores bind: text, numbers and NULL only (JSON travels as text, booleans as 0/1). */
export type SqlValue = string | number | null;

/** Statements inside one transaction. Placeholders are `?`; the PostgreSQL connection numbers them. */
export interface SqlSession {
  all(sql: string, params?: readonly SqlValue[]): Promise<Record<string, unknown>[]>;
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

/**
 * One database, as the SQL backend needs it. A `write` transaction on SQLite takes the database's write
 * lock up front (BEGIN IMMEDIATE); on PostgreSQL the backend locks the journal head row first. A `read`
 * transaction sees one snapshot.
 */
export interface SqlConnection {
  readonly dialect: 'sqlite' | 'postgres';
  /** The quoted (and, on PostgreSQL, schema-qualified) name of a table. */
  table(name: string): string;
  /**
   * `opening`: a statement without parameters to run first, whose rows `work` receives; PostgreSQL sends it
   * with the BEGIN in one round trip.
   */
  transaction<T>(
    mode: 'read' | 'write',
    work: (session: SqlSession, opened: Record<string, unknown>[]) => Promise<T>,
    opening?: string,
  ): Promise<T>;
  /**
   * One statement on its own, outside any transaction (it sees one snapshot by itself): PostgreSQL sends it
   * in one round trip instead of four (BEGIN, the statement, COMMIT and a second statement). Absent on SQLite,
   * where a transaction costs no round trip.
   */
  single?(sql: string, params: readonly SqlValue[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Double-quotes an identifier the stores build themselves (never user text). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
