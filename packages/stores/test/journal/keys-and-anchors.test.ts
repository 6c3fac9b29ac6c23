// Key rotation, keys turned on for an existing journal, anchors as arguments (forged, unsigned, missing
// their key), `toolcircuit journal anchor`, and journals written before keyed chains existed (schema v1):
// on SQLite and PostgreSQL, through the API and the built CLI.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DurableStore,
  fileAnchorSink,
  InvalidJournalAnchorError,
  InvalidStoreOptionsError,
  type JournalAnchor,
  readAnchorFile,
} from '../../src/index.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';
import { startPaused, world } from '../support/world.js';
import {
  assertCliBuilt,
  type Dialect,
  keyOnDisk,
  postgresDialect,
  sqliteDialect,
  toolcircuit,
} from './journal-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-keys-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const k1 = keyOnDisk(root, 'k1');
const k2 = keyOnDisk(root, 'k2');
beforeAll(() => assertCliBuilt());

function describeKeysAndAnchors(dialect: () => Dialect) {
  it('rotates keys: entries carry their key id; verify needs every key they were written under', async () => {
    const d = dialect();
    const { store, under } = await d.journal({ key: k1.key });
    await store.close();
    // Reopened with the new key, as after a rotation: new entries go under k2.
    let reopened: DurableStore | undefined;
    try {
      reopened = await reopen(d, under.cliArgs, { key: k2.key });
      await startPaused(world(), reopened, 'run-3');
      const rows = await reopened.readJournal();
      expect(rows.map((row) => row.keyId)).toEqual([...Array(9).fill('k1'), 'k2', 'k2', 'k2']);
      // The store's own key is always used; retired ones are passed.
      expect(await reopened.verifyJournal({ keys: [k1.key] })).toMatchObject({
        ok: true,
        entries: 12,
        unkeyedEntries: 0,
      });
      expect(await reopened.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unverifiable', entries: 0 });
      const journal = await under.open();
      try {
        expect(await journal.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unverifiable' });
        expect(await journal.verifyJournal({ keys: [k2.key] })).toMatchObject({
          ok: false,
          seq: 1,
          problem: 'unverifiable',
          message: expect.stringMatching(/key "k1", which is not among the keys given/),
        });
        await expect(journal.verifyJournal({ keys: [k1.key, { id: 'k1', secret: k2.key.secret }] })).rejects.toThrow(
          InvalidStoreOptionsError,
        );
      } finally {
        await journal.close();
      }
      const both = await toolcircuit(
        ['journal', 'verify', ...under.cliArgs, '--key', `k2=${k2.file}`, '--key', `k1=${k1.file}`],
        root,
      );
      expect(both).toMatchObject({ code: 0, stdout: expect.stringMatching(/^journal intact: 12 entries, head 12:/) });
      expect(both.stdout).not.toMatch(/unkeyed chain/);
      const onlyNew = await toolcircuit(['journal', 'verify', ...under.cliArgs, '--key', `k2=${k2.file}`], root);
      expect(onlyNew).toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/^journal NOT VERIFIED: entry 1 unverifiable/),
      });
    } finally {
      await reopened?.close();
      await under.close();
    }
  });

  it('turns keys on for an existing journal: its unkeyed entries are refused unless accepted up to their last seq', async () => {
    const d = dialect();
    const { store, under } = await d.journal({});
    await store.close();
    const keyed = await reopen(d, under.cliArgs, { key: k1.key });
    try {
      await startPaused(world(), keyed, 'run-3');
      expect(await keyed.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unkeyed', entries: 0 });
      expect(await keyed.verifyJournal({ acceptUnkeyedUpTo: 9 })).toMatchObject({
        ok: true,
        entries: 12,
        unkeyedEntries: 9,
      });
      // An unkeyed entry after the accepted ones is what a forger without the key would write.
      expect(await keyed.verifyJournal({ acceptUnkeyedUpTo: 8 })).toMatchObject({
        ok: false,
        seq: 9,
        problem: 'unkeyed',
      });
      const cli = await toolcircuit(
        ['journal', 'verify', ...under.cliArgs, '--key', `k1=${k1.file}`, '--accept-unkeyed-up-to', '9'],
        root,
      );
      expect(cli).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/12 entries[\s\S]*note: 9 entries are on the unkeyed chain/),
      });
    } finally {
      await keyed.close();
      await under.close();
    }
  });

  it('checks an anchor before trusting it: an altered or unsigned one is damage (exit 1), a malformed one or an unknown key a usage error (exit 2)', async () => {
    const d = dialect();
    const { store, under } = await d.journal({ key: k1.key });
    const anchor = await store.anchorJournal();
    await store.close();
    const file = (name: string, value: unknown) => {
      const path = join(root, `${d.name}-${name}.jsonl`);
      writeFileSync(path, `${JSON.stringify(value)}\n`);
      return path;
    };
    try {
      const journal = await under.open();
      try {
        expect(await journal.verifyJournal({ keys: [k1.key], anchor })).toMatchObject({ ok: true, anchor: { seq: 9 } });
        const rewound: JournalAnchor = { ...anchor, seq: 5 };
        await expect(journal.verifyJournal({ keys: [k1.key], anchor: rewound })).rejects.toThrow(
          /MAC does not match under key "k1"/,
        );
        await expect(journal.verifyJournal({ anchor })).rejects.toThrow(InvalidJournalAnchorError);
        await expect(journal.verifyJournal({ keys: [k2.key], anchor })).rejects.toThrow(
          /key "k1", which was not given/,
        );
        // Its key id and MAC both removed: with keys in use, a taken anchor (it has its time) must be signed.
        const unsigned = { seq: anchor.seq, hash: anchor.hash, at: anchor.at };
        // (Without keys a keyed journal never verifies as intact anyway.)
        expect(await journal.verifyJournal({ anchor: unsigned })).toMatchObject({ ok: false, problem: 'unverifiable' });
        await expect(journal.verifyJournal({ keys: [k1.key], anchor: unsigned })).rejects.toMatchObject({
          tampered: true,
          message: expect.stringMatching(/carries no MAC, but keys were given/),
        });
        // A bare head the auditor noted is their own word.
        expect(await journal.verifyJournal({ keys: [k1.key], anchor: { seq: 9, hash: anchor.hash } })).toMatchObject({
          ok: true,
        });
      } finally {
        await journal.close();
      }
      const bareLine = join(root, `${d.name}-bare.jsonl`);
      writeFileSync(bareLine, `${anchor.seq}:${anchor.hash}\n`);
      const rejected: [string, RegExp][] = [
        [file('rewound', { ...anchor, seq: 5 }), /MAC does not match/],
        [file('no-mac', { ...anchor, mac: undefined }), /key id or a MAC but not both/],
        [
          file('unsigned', { seq: anchor.seq, hash: anchor.hash, at: anchor.at }),
          /carries no MAC, but keys were given/,
        ],
        [bareLine, /last line of the anchor file carries no MAC, but keys were given/],
      ];
      for (const [path, message] of rejected) {
        const run = await toolcircuit(
          ['journal', 'verify', ...under.cliArgs, '--key', `k1=${k1.file}`, '--anchor', path],
          root,
        );
        expect({ path, code: run.code, stderr: run.stderr }).toEqual({ path, code: 1, stderr: '' });
        expect(run.stdout).toMatch(/^journal NOT VERIFIED: the anchor was rejected: /);
        expect(run.stdout).toMatch(message);
      }
      const unusable: [string, RegExp][] = [
        [file('garbage', { seq: 'x' }), /needs seq/],
        [join(root, 'no-such-anchors.jsonl'), /anchor file/],
      ];
      for (const [path, message] of unusable) {
        const run = await toolcircuit(
          ['journal', 'verify', ...under.cliArgs, '--key', `k1=${k1.file}`, '--anchor', path],
          root,
        );
        expect({ path, code: run.code }).toEqual({ path, code: 2 });
        expect(run.stderr).toMatch(message);
      }
      const unknownKey = await toolcircuit(
        ['journal', 'verify', ...under.cliArgs, '--key', `k2=${k2.file}`, '--anchor', file('good', anchor)],
        root,
      );
      expect(unknownKey).toMatchObject({ code: 2, stderr: expect.stringMatching(/key "k1", which was not given/) });
      const shortKey = join(root, 'short.key');
      writeFileSync(shortKey, 'too short\n');
      const short = await toolcircuit(['journal', 'verify', ...under.cliArgs, '--key', `k1=${shortKey}`], root);
      expect(short).toMatchObject({ code: 2, stderr: expect.stringMatching(/at least 32/) });
      const badSpec = await toolcircuit(['journal', 'verify', ...under.cliArgs, '--key', k1.file], root);
      expect(badSpec).toMatchObject({ code: 2, stderr: expect.stringMatching(/--key must be <id>=<file>/) });
    } finally {
      await under.close();
    }
  });

  it('`journal anchor` verifies first, appends a signed anchor to --out, and refuses a damaged journal', async () => {
    const d = dialect();
    const { store, under } = await d.journal({ key: k1.key });
    await store.close();
    const out = join(root, `${d.name}-anchors.jsonl`);
    try {
      const first = await toolcircuit(
        ['journal', 'anchor', ...under.cliArgs, '--key', `k1=${k1.file}`, '--out', out],
        root,
      );
      expect(first.code).toBe(0);
      const anchor = JSON.parse(first.stdout) as JournalAnchor;
      expect(anchor).toMatchObject({
        seq: 9,
        keyId: 'k1',
        at: expect.any(String),
        mac: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(await readAnchorFile(out)).toEqual(anchor);
      // Cut the tail and rewind the head: the next anchor is checked against the last one, and refused.
      await under.raw.sql('DELETE FROM {journal} WHERE seq > 5');
      const [last] = (await under.raw.rows()).slice(-1);
      await under.raw.sql('UPDATE {head} SET seq = ?, hash = ?', [5, last?.hash ?? '']);
      const second = await toolcircuit(
        ['journal', 'anchor', ...under.cliArgs, '--key', `k1=${k1.file}`, '--out', out],
        root,
      );
      expect(second).toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/entry 6 truncated[\s\S]*no anchor was taken/),
      });
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1);
      const verify = await toolcircuit(
        ['journal', 'verify', ...under.cliArgs, '--key', `k1=${k1.file}`, '--anchor', out],
        root,
      );
      expect(verify).toMatchObject({ code: 1, stdout: expect.stringMatching(/^journal TAMPERED: entry 6 truncated/) });
    } finally {
      await under.close();
    }
  });

  it('sends anchors to the sink the journal policy names', async () => {
    const d = dialect();
    const out = join(root, `${d.name}-policy-anchors.jsonl`);
    const { store, under } = await d.journal({ key: k1.key, anchorSink: fileAnchorSink(out) });
    try {
      expect(existsSync(out)).toBe(false);
      const anchor = await store.anchorJournal();
      await startPaused(world(), store, 'run-3');
      const later = await store.anchorJournal();
      expect(
        readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual([anchor, later]);
      expect(later.seq).toBe(12);
      expect(await store.verifyJournal({ anchor })).toMatchObject({ ok: true, entries: 12 });
    } finally {
      await store.close();
      await under.close();
    }
  });

  it('a journal keyed under schema v2 is marked keyed when migrated: wiped later, it does not verify without the key', async () => {
    const d = dialect();
    const { store, under } = await d.journal({ key: k1.key });
    await store.close();
    await undoKeyedHead(d, under);
    try {
      const migrated = await reopen(d, under.cliArgs, { key: k1.key });
      await migrated.close();
      await under.raw.replace([], { seq: 0, hash: '0'.repeat(64) });
      const run = await toolcircuit(['journal', 'verify', ...under.cliArgs], root);
      expect(run).toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/^journal TAMPERED: entry 1 truncated: .*first keyed entry/),
      });
    } finally {
      await under.close();
    }
  });

  it('verifies a journal written before keyed chains (schema v1) as the unkeyed chain it is, and migrates it', async () => {
    const d = dialect();
    const { store, under } = await d.journal({});
    await store.close();
    // What a store of an old release left: no key_id column, no keyed head, migrations 2 and 3 not applied.
    await undoKeyedHead(d, under);
    await under.raw.sql('ALTER TABLE {journal} DROP COLUMN key_id');
    await under.raw.sql('DELETE FROM {migrations} WHERE version = 2');
    try {
      const old = await under.open();
      try {
        expect(await old.schemaVersion()).toBe(1);
        expect(await old.verifyJournal()).toMatchObject({ ok: true, entries: 9, unkeyedEntries: 9 });
        expect(await old.verifyJournal({ keys: [k1.key] })).toMatchObject({ ok: false, seq: 1, problem: 'unkeyed' });
      } finally {
        await old.close();
      }
      const cli = await toolcircuit(['journal', 'verify', ...under.cliArgs], root);
      expect(cli).toMatchObject({ code: 0, stdout: expect.stringMatching(/^journal intact: 9 entries/) });
      const migrated = await reopen(d, under.cliArgs, { key: k1.key });
      try {
        expect(await migrated.schemaVersion()).toBe(5);
        await startPaused(world(), migrated, 'run-3');
        expect(await migrated.verifyJournal({ acceptUnkeyedUpTo: 9 })).toMatchObject({
          ok: true,
          entries: 12,
          unkeyedEntries: 9,
        });
      } finally {
        await migrated.close();
      }
    } finally {
      await under.close();
    }
  });
}

/** Takes a store back to schema version 2: no keyed head (column, triggers, migration record). */
async function undoKeyedHead(
  d: Dialect,
  under: { raw: { sql(statement: string): Promise<void> }; cliArgs: readonly string[] },
) {
  // Nor had it the run events (schema 5), nor the run state's item rows (schema 4).
  await under.raw.sql('DROP TABLE {events}');
  await under.raw.sql('DELETE FROM {migrations} WHERE version = 5');
  await under.raw.sql('DROP TABLE {items}');
  await under.raw.sql('ALTER TABLE {runs} DROP COLUMN items_json');
  await under.raw.sql('DELETE FROM {migrations} WHERE version = 4');
  // The fixture drops the triggers before each statement; PostgreSQL's trigger function goes too.
  if (d.name === 'PostgreSQL')
    await under.raw.sql(`DROP FUNCTION "${under.cliArgs[3]}".journal_head_stays_keyed() CASCADE`);
  await under.raw.sql('ALTER TABLE {head} DROP COLUMN keyed_since');
  await under.raw.sql('DELETE FROM {migrations} WHERE version = 3');
}

/** Opens the store behind a journal under test again (its CLI flags say where it is). */
async function reopen(d: Dialect, cliArgs: readonly string[], journal: { key: typeof k1.key }): Promise<DurableStore> {
  if (d.name === 'SQLite') {
    const { openSqliteStore } = await import('../../src/sqlite/index.js');
    return openSqliteStore({ file: cliArgs[1] as string, journal });
  }
  const { openPostgresStore } = await import('../../src/postgres/index.js');
  return openPostgresStore({ connectionString: cliArgs[1] as string, schema: cliArgs[3] as string, journal });
}

describe('journal keys and anchors, on SQLite', () => {
  const dialect = sqliteDialect(root);
  describeKeysAndAnchors(() => dialect);
});

const url = postgresTestUrl();
requirePostgresInCi(url);
describe.skipIf(url === undefined)(
  `journal keys and anchors, on PostgreSQL${url === undefined ? ` (skipped: ${POSTGRES_MISSING})` : ''}`,
  () => {
    const dialect = postgresDialect(url as string);
    describeKeysAndAnchors(() => dialect);
  },
);
