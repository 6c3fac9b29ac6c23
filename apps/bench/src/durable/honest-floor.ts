import { join } from 'node:path';
import { canonicalJson, type Message, type ToolCallPart } from '@toolcircuit/core';
import { type JournalKey, keyedChainHash } from '@toolcircuit/stores';
import { Ajv } from 'ajv';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  type DurableScenario,
  FINAL_TEXT,
  scriptedTurn,
  sendTransfer,
  transferSchema,
  userMessages,
} from './durable-world.js';

type Value = string | number | null;
/** The statements of one transaction: `?` placeholders, multi-row inserts written out. */
type Statement = readonly [sql: string, params: readonly Value[]];

/** One database, as the honest floor needs it: transactions of a few statements. */
export interface HonestFloorSql {
  commit(statements: readonly Statement[]): Promise<void>;
  close(): Promise<void>;
}

const TABLES = [
  'CREATE TABLE runs (run_id TEXT PRIMARY KEY NOT NULL, turn INTEGER NOT NULL, head_json TEXT NOT NULL)',
  `CREATE TABLE items (run_id TEXT NOT NULL, idx INTEGER NOT NULL, item_json TEXT NOT NULL,
    PRIMARY KEY (run_id, idx))`,
  `CREATE TABLE calls (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL, state TEXT NOT NULL,
    result_json TEXT, PRIMARY KEY (run_id, turn, call_id))`,
  `CREATE TABLE journal (seq INTEGER PRIMARY KEY NOT NULL, run_id TEXT NOT NULL, prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL, record_json TEXT NOT NULL)`,
];

/** SQLite with the store's settings (WAL, synchronous = FULL); statements prepared once. */
export function sqliteHonestFloor(dir: string): HonestFloorSql {
  const db = new Database(join(dir, 'honest-floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const table of TABLES) db.exec(`${table} STRICT`);
  const prepared = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = prepared.get(sql);
    if (found === undefined) {
      found = db.prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  return {
    async commit(statements) {
      statement('BEGIN IMMEDIATE').run();
      for (const [sql, params] of statements) statement(sql).run(...params);
      statement('COMMIT').run();
    },
    async close() {
      db.close();
    },
  };
}

/** PostgreSQL, in a schema of its own: BEGIN, the statements, COMMIT on one connection. */
export async function postgresHonestFloor(connectionString: string, schema: string): Promise<HonestFloorSql> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', () => {});
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.query(`CREATE SCHEMA ${schema}`);
  for (const table of TABLES) await pool.query(table.replace(/CREATE TABLE (\w+)/, `CREATE TABLE ${schema}.$1`));
  const numbered = (sql: string) => {
    let index = 0;
    return sql.replace(/\?/g, () => `$${++index}`).replace(/\b(runs|items|calls|journal)\b/, `${schema}.$1`);
  };
  return {
    async commit(statements) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const [sql, params] of statements) await client.query(numbered(sql), [...params]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await pool.end();
    },
  };
}

/** Where each database's journal chain stands: every run of the floor on it appends to the one chain. */
const chains = new WeakMap<HonestFloorSql, { seq: number; prevHash: string }>();

const tuples = (rows: number, width: number) =>
  Array.from({ length: rows }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');

/**
 * The honest floor: a hand-written loop doing the work a durable, verifiable run cannot avoid, and nothing
 * else. Per turn, two commits: before any call runs, the turn's new conversation items (canonical JSON, one
 * row each, appended), the run's small head, a row and a start record per call; after the calls, an
 * outcome record and the result per call. Every record is canonical JSON chained under the journal key
 * (HMAC-SHA256 over the previous hash), as the store's are. No rights, schemas beyond ajv, digests of
 * inputs, provenance, claims or hooks.
 */
export function honestFloor(
  scenario: DurableScenario,
  sql: HonestFloorSql,
  key: JournalKey,
  options: { readonly onTurn?: (turn: number) => Promise<void> } = {},
): (runId: string) => Promise<void> {
  const ajv = new Ajv();
  const validate = ajv.compile(transferSchema);
  let chain = chains.get(sql);
  if (chain === undefined) {
    chain = { seq: 0, prevHash: '0'.repeat(64) };
    chains.set(sql, chain);
  }
  const head = chain;
  /** A journal row for the record, chained after the database's last one. */
  const chained = (runId: string, record: object): Value[] => {
    const hash = keyedChainHash(key, head.prevHash, record);
    head.seq += 1;
    const row = [head.seq, runId, head.prevHash, hash, canonicalJson(record)];
    head.prevHash = hash;
    return row;
  };
  return async (runId) => {
    const messages: Message[] = [...userMessages];
    let stored = 0;
    for (let turn = 0; ; turn += 1) {
      await options.onTurn?.(turn);
      const modelTurn = await Promise.resolve(scriptedTurn(scenario, turn));
      const calls = modelTurn.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
      messages.push({ role: 'assistant', content: modelTurn.content });
      if (calls.length === 0) {
        const text = modelTurn.content[0];
        if (text?.type !== 'text' || text.text !== FINAL_TEXT) throw new Error('the honest floor lost its script');
        return;
      }
      const valid = calls.map((call) => validate(call.input));
      const at = new Date().toISOString();
      const items = messages
        .slice(stored)
        .map((message, index): Value[] => [runId, stored + index, canonicalJson(message)]);
      stored = messages.length;
      const starts = calls.map((call) =>
        chained(runId, { kind: 'start', at, runId, turn, callId: call.id, toolName: call.name, input: call.input }),
      );
      await sql.commit([
        [`INSERT INTO items VALUES ${tuples(items.length, 3)}`, items.flat()],
        [
          'INSERT INTO runs VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET turn = excluded.turn, head_json = excluded.head_json',
          [runId, turn, canonicalJson({ runId, turn, items: stored, usage: modelTurn.usage })],
        ],
        [
          `INSERT INTO calls VALUES ${tuples(calls.length, 5)}`,
          calls.flatMap((call) => [runId, turn, call.id, 'started', null]),
        ],
        [`INSERT INTO journal VALUES ${tuples(starts.length, 5)}`, starts.flat()],
      ]);
      const results = await Promise.all(
        calls.map(async (call, index) =>
          valid[index]
            ? {
                callId: call.id,
                content: await sendTransfer(call.input as { amount: number; to: string }),
                isError: false,
              }
            : { callId: call.id, content: ajv.errorsText(validate.errors), isError: true },
        ),
      );
      const outcomes = results.map((result, index) =>
        chained(runId, { kind: 'call', at, runId, turn, toolName: calls[index]?.name, ...result }),
      );
      await sql.commit([
        [`INSERT INTO journal VALUES ${tuples(outcomes.length, 5)}`, outcomes.flat()],
        ...results.map(
          (result): Statement => [
            "UPDATE calls SET state = 'done', result_json = ? WHERE run_id = ? AND turn = ? AND call_id = ?",
            [canonicalJson(result), runId, turn, result.callId],
          ],
        ),
      ]);
      messages.push({
        role: 'tool',
        content: results.map((result, index) => ({
          type: 'tool_result' as const,
          callId: result.callId,
          name: calls[index]?.name ?? '',
          content: result.content,
          isError: result.isError,
        })),
      });
    }
  };
}
