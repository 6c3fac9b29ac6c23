// What someone with write access to the database can do to a journal, and what each protection says about
// it. One list for the tests (tampering.test.ts, on SQLite and PostgreSQL, through the API and the CLI) and
// for the table in packages/stores/README.md (a test checks the README shows exactly this table).
import { chainHash, GENESIS_HASH, type JournalHead, type JournalProblem } from '../../src/index.js';

/** A journal row with every column, as an attacker reads and writes it. */
export interface TamperRow {
  readonly seq: number;
  readonly runId: string;
  readonly kind: string;
  readonly prevHash: string;
  readonly hash: string;
  readonly recordJson: string;
  readonly keyId: string | null;
}

/** Direct access to the journal's tables, with the append-only triggers already dropped. */
export interface RawJournalDb {
  rows(): Promise<TamperRow[]>;
  /** Replaces every row; sets the head row to `head` (or leaves it when undefined). */
  replace(rows: readonly TamperRow[], head?: JournalHead): Promise<void>;
  /**
   * One statement; `{journal}`, `{head}`, `{migrations}`, `{runs}` and `{calls}` (the decided calls) name the
   * tables, `?` are parameters.
   */
  sql(statement: string, params?: readonly (string | number | null)[]): Promise<void>;
}

/**
 * How the journal is checked: the protections of the README table. The last is a keyed journal checked by
 * an auditor who did not pass its key (`journal verify` without `--key`): it must never pass as intact.
 */
export const PROTECTIONS = ['unkeyed', 'keyed', 'keyed + anchor', 'keyed, checked without the key'] as const;
export type Protection = (typeof PROTECTIONS)[number];

/** What verify must say: intact (tampering not detected), or the first entry that does not check out. */
export type Verdict = 'intact' | { readonly problem: JournalProblem; readonly seq: number };

export interface TamperingCase {
  /** The row label in the README. */
  readonly name: string;
  /**
   * The journal is 9 entries: run-1 paused (1: the lookup's start, 2-3: its two calls), decided (4),
   * started (5), executed (6); run-2 paused (7-9). The anchor, when there is one, was taken of that head, before the tampering.
   */
  tamper(db: RawJournalDb): Promise<void>;
  readonly verdicts: Readonly<Record<Protection, Verdict>>;
}

const detected = (problem: JournalProblem, seq: number): Verdict => ({ problem, seq });
/** Without its key, a keyed journal's first entry cannot be checked: verification stops there. */
const KEY_NEEDED = detected('unverifiable', 1);
/** The verdicts of the three keyed-or-not protections, and, checked without the key, "key needed". */
const withKey = (verdicts: Omit<Record<Protection, Verdict>, 'keyed, checked without the key'>) => ({
  ...verdicts,
  'keyed, checked without the key': KEY_NEEDED,
});
const everywhere = (verdict: Verdict): Record<Protection, Verdict> =>
  withKey({ unkeyed: verdict, keyed: verdict, 'keyed + anchor': verdict });

/** Re-hashes rows from `from` on with the public (unkeyed) algorithm, keeping their key ids: a forger's best try. */
function rehash(rows: readonly TamperRow[], from: number): TamperRow[] {
  const out: TamperRow[] = [];
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    if (row.seq < from) {
      out.push(row);
      prevHash = row.hash;
      continue;
    }
    const hash = chainHash(prevHash, JSON.parse(row.recordJson));
    out.push({ ...row, prevHash, hash });
    prevHash = hash;
  }
  return out;
}

/** Edits entry 2, removes every key id and re-hashes the whole journal on the unkeyed chain, head included. */
async function stripKeysAndRehash(db: RawJournalDb): Promise<void> {
  const rows = (await db.rows()).map((row) =>
    row.seq === 2
      ? withRecord({ ...row, keyId: null }, (record) => Object.assign(record, { at: '2000-01-01T00:00:00.000Z' }))
      : { ...row, keyId: null },
  );
  const rewritten = rehash(rows, 1);
  await db.replace(rewritten, headOf(rewritten));
}

function headOf(rows: readonly TamperRow[]): JournalHead {
  const last = rows.at(-1);
  return last === undefined ? { seq: 0, hash: GENESIS_HASH } : { seq: last.seq, hash: last.hash };
}

function withRecord(row: TamperRow, change: (record: Record<string, unknown>) => void): TamperRow {
  const record = JSON.parse(row.recordJson) as Record<string, unknown>;
  change(record);
  return { ...row, recordJson: JSON.stringify(record) };
}

export const TAMPERING_CASES: readonly TamperingCase[] = [
  {
    name: 'edit an entry',
    tamper: (db) =>
      db.sql(
        `UPDATE {journal} SET record_json = replace(record_json, '"approved":true', '"approved":false') WHERE seq = 4`,
      ),
    verdicts: everywhere(detected('edited', 4)),
  },
  {
    name: 'edit an entry and re-hash it in place',
    tamper: async (db) => {
      const rows = await db.rows();
      await db.replace(
        rows.map((row) => {
          if (row.seq !== 4) return row;
          const edited = withRecord(row, (record) => {
            record.approved = false;
          });
          return { ...edited, hash: chainHash(row.prevHash, JSON.parse(edited.recordJson)) };
        }),
      );
    },
    // Unkeyed, entry 5 no longer links to entry 4, and entry 4 is not vouched for; keyed, entry 4's MAC fails.
    verdicts: everywhere(detected('edited', 4)),
  },
  {
    name: 'delete an entry in the middle',
    tamper: (db) => db.sql('DELETE FROM {journal} WHERE seq = 4'),
    verdicts: everywhere(detected('deleted', 4)),
  },
  {
    name: 'reorder entries',
    tamper: async (db) => {
      const rows = await db.rows();
      const [two, three] = [rows[1] as TamperRow, rows[2] as TamperRow];
      await db.replace(
        rows.map((row) => (row.seq === 2 ? { ...three, seq: 2 } : row.seq === 3 ? { ...two, seq: 3 } : row)),
      );
    },
    verdicts: everywhere(detected('reordered', 2)),
  },
  {
    name: 'insert an entry in the middle',
    tamper: async (db) => {
      const rows = await db.rows();
      const after = rows[2] as TamperRow;
      const forged = withRecord({ ...after, seq: 4, prevHash: after.hash }, (record) => {
        record.callId = 'forged';
      });
      const inserted = { ...forged, hash: chainHash(after.hash, JSON.parse(forged.recordJson)) };
      const shifted = [...rows.slice(0, 3), inserted, ...rows.slice(3).map((row) => ({ ...row, seq: row.seq + 1 }))];
      await db.replace(shifted, { seq: rows.length + 1, hash: (rows.at(-1) as TamperRow).hash });
    },
    verdicts: withKey({
      unkeyed: detected('inserted', 4),
      // Keyed, the forged entry's MAC fails before its place in the chain is looked at.
      keyed: detected('edited', 4),
      'keyed + anchor': detected('edited', 4),
    }),
  },
  {
    name: 'cut off the tail (head row left)',
    tamper: (db) => db.sql('DELETE FROM {journal} WHERE seq > 5'),
    verdicts: everywhere(detected('deleted', 6)),
  },
  {
    name: 'cut off the tail and rewind the head row',
    tamper: async (db) => {
      const rows = (await db.rows()).filter((row) => row.seq <= 5);
      await db.replace(rows, headOf(rows));
    },
    // The approved transfer's row in the run tables still points to its answer, entry 6.
    verdicts: withKey({
      unkeyed: detected('run_mismatch', 6),
      keyed: detected('run_mismatch', 6),
      'keyed + anchor': detected('truncated', 6),
    }),
  },
  {
    name: 'wipe the journal and reset the head row',
    tamper: (db) => db.replace([], headOf([])),
    // The head row keeps the number of the first keyed entry: a keyed journal that no longer reaches it was cut.
    // Unkeyed, the run tables still hold calls that no entry decided (0: no entry to name).
    verdicts: {
      unkeyed: detected('run_mismatch', 0),
      keyed: detected('truncated', 1),
      'keyed + anchor': detected('truncated', 1),
      'keyed, checked without the key': detected('truncated', 1),
    },
  },
  {
    name: 'wipe the journal, reset the head row and clear its keyed mark',
    tamper: async (db) => {
      await db.replace([], headOf([]));
      await db.sql('UPDATE {head} SET keyed_since = NULL');
    },
    verdicts: {
      unkeyed: detected('run_mismatch', 0),
      keyed: detected('run_mismatch', 0),
      'keyed + anchor': detected('truncated', 1),
      'keyed, checked without the key': detected('run_mismatch', 0),
    },
  },
  {
    name: 'wipe the journal and the run tables, reset the head row and clear its keyed mark',
    tamper: async (db) => {
      await db.sql('DELETE FROM {calls}');
      await db.sql('DELETE FROM {items}');
      await db.sql('DELETE FROM {runs}');
      await db.replace([], headOf([]));
      await db.sql('UPDATE {head} SET keyed_since = NULL');
    },
    // Nothing in the database is left to tell: only an anchor kept elsewhere does.
    verdicts: {
      unkeyed: 'intact',
      keyed: 'intact',
      'keyed + anchor': detected('truncated', 1),
      'keyed, checked without the key': 'intact',
    },
  },
  {
    name: 'append a forged entry',
    tamper: async (db) => {
      const rows = await db.rows();
      const last = rows.at(-1) as TamperRow;
      const forged = withRecord({ ...last, seq: last.seq + 1, prevHash: last.hash }, (record) => {
        record.callId = 'forged';
        record.at = '2031-01-01T00:00:00.000Z';
      });
      const row = { ...forged, hash: chainHash(last.hash, JSON.parse(forged.recordJson)) };
      await db.replace([...rows, row], headOf([...rows, row]));
    },
    verdicts: withKey({ unkeyed: 'intact', keyed: detected('edited', 10), 'keyed + anchor': detected('edited', 10) }),
  },
  {
    name: 'edit an entry and re-hash the whole journal',
    tamper: async (db) => {
      const rows = (await db.rows()).map((row) =>
        row.seq === 2 ? withRecord(row, (record) => Object.assign(record, { at: '2000-01-01T00:00:00.000Z' })) : row,
      );
      const rewritten = rehash(rows, 1);
      await db.replace(rewritten, headOf(rewritten));
    },
    verdicts: withKey({ unkeyed: 'intact', keyed: detected('edited', 1), 'keyed + anchor': detected('edited', 1) }),
  },
  {
    name: 'edit an entry, strip the key ids and re-hash the whole journal',
    tamper: stripKeysAndRehash,
    // The head row says the journal is keyed from entry 1: an entry there without a key id is refused, key or not.
    verdicts: {
      unkeyed: 'intact',
      keyed: detected('unkeyed', 1),
      'keyed + anchor': detected('unkeyed', 1),
      'keyed, checked without the key': detected('unkeyed', 1),
    },
  },
  {
    name: "… and clear the head row's keyed mark",
    tamper: async (db) => {
      await stripKeysAndRehash(db);
      await db.sql('UPDATE {head} SET keyed_since = NULL');
    },
    // Given the key, every entry must carry one; without it, nothing is left that says the journal was keyed.
    verdicts: {
      unkeyed: 'intact',
      keyed: detected('unkeyed', 1),
      'keyed + anchor': detected('unkeyed', 1),
      'keyed, checked without the key': 'intact',
    },
  },
  {
    name: "move a run's entries to another run id",
    tamper: (db) => db.sql(`UPDATE {journal} SET run_id = 'run-9' WHERE run_id = 'run-1'`),
    verdicts: everywhere(detected('edited', 1)),
  },
  {
    name: "change an entry's kind column",
    tamper: (db) => db.sql(`UPDATE {journal} SET kind = 'call' WHERE seq = 4`),
    verdicts: everywhere(detected('edited', 4)),
  },
  {
    name: 'delete the head row',
    tamper: (db) => db.sql('DELETE FROM {head}'),
    verdicts: everywhere(detected('head_missing', 10)),
  },
  {
    name: "change an approved call's arguments in the run table",
    // The approved transfer: on resume or recovery, the run would take the changed digest for the approved one.
    tamper: (db) =>
      db.sql(`UPDATE {calls} SET input_digest = ? WHERE run_id = 'run-1' AND call_id = 'pay'`, ['f'.repeat(64)]),
    // The run tables are outside the chain; the entry that decided the call is not.
    verdicts: everywhere(detected('run_mismatch', 4)),
  },
  {
    name: 'move a run to another session in the run table',
    tamper: (db) => db.sql(`UPDATE {runs} SET session_id = 'someone-else' WHERE run_id = 'run-1'`),
    verdicts: everywhere(detected('run_mismatch', 2)),
  },
  {
    name: 'drop the journal table',
    tamper: (db) => db.sql('DROP TABLE {journal}'),
    // Damage to the store (exit 1), not "not a toolcircuit store" (exit 2): its migrations table is still there.
    verdicts: {
      unkeyed: detected('deleted', 1),
      keyed: detected('deleted', 1),
      'keyed + anchor': detected('deleted', 1),
      'keyed, checked without the key': detected('deleted', 1),
    },
  },
];

/** The README table, rendered from the list. */
export function tamperingTable(): string {
  const cell = (verdict: Verdict) =>
    verdict === 'intact'
      ? 'not detected'
      : verdict.problem === 'unverifiable'
        ? 'refused (unverifiable: key needed)'
        : `detected (${verdict.problem})`;
  return [
    `| someone with write access to the database… | ${PROTECTIONS.join(' | ')} |`,
    `|---|${PROTECTIONS.map(() => '---').join('|')}|`,
    ...TAMPERING_CASES.map(
      (entry) => `| ${entry.name} | ${PROTECTIONS.map((protection) => cell(entry.verdicts[protection])).join(' | ')} |`,
    ),
  ].join('\n');
}
