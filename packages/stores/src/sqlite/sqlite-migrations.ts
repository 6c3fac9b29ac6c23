import { GENESIS_HASH } from '../journal/journal-chain.js';
import type { Migration } from '../sql/sql-migrations.js';

/** Versioned schema of the SQLite store. Append new versions; never edit an applied one. */
export const sqliteMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, decided calls and the hash-chained journal',
    statements: [
      `CREATE TABLE runs (
        run_id TEXT PRIMARY KEY NOT NULL,
        session_id TEXT NOT NULL,
        human_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('paused', 'resuming', 'interrupted', 'completed', 'max_turns', 'aborted')),
        revision INTEGER NOT NULL,
        turn INTEGER,
        paused_json TEXT,
        paused_digest TEXT,
        result_json TEXT,
        catalogue_json TEXT NOT NULL,
        claim_token TEXT,
        claim_worker TEXT,
        claimed_at TEXT,
        lease_expires_at TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX runs_by_status ON runs (status, updated_at)',
      `CREATE TABLE run_calls (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        turn INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        tool_name TEXT NOT NULL,
        input_digest TEXT NOT NULL,
        approved INTEGER NOT NULL CHECK (approved IN (0, 1)),
        note TEXT,
        state TEXT NOT NULL CHECK (state IN ('intended', 'started', 'done', 'unknown')),
        result_json TEXT,
        journal_seq INTEGER,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (run_id, turn, call_id)
      ) STRICT`,
      `CREATE TABLE journal (
        seq INTEGER PRIMARY KEY NOT NULL,
        run_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        record_json TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX journal_by_run ON journal (run_id, seq)',
      'CREATE INDEX journal_by_hash ON journal (hash)',
      `CREATE TABLE journal_head (
        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
        seq INTEGER NOT NULL,
        hash TEXT NOT NULL
      ) STRICT`,
      `INSERT INTO journal_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}')`,
      // Append-only in the database too. Someone with write access can drop these triggers, which is why
      // the rows are also hash-chained: `verify` finds what was changed even then.
      `CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
        BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal is append-only'); END`,
      `CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
        BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal is append-only'); END`,
    ],
  },
  {
    version: 2,
    name: 'keyed journal entries: the id of the key each entry is chained under',
    // NULL for every existing entry: they stay on the unkeyed chain and verify as before.
    statements: ['ALTER TABLE journal ADD COLUMN key_id TEXT'],
  },
  {
    version: 3,
    name: 'keyed head: the first keyed entry, kept so a keyed journal cannot pass for an unkeyed one',
    statements: [
      'ALTER TABLE journal_head ADD COLUMN keyed_since INTEGER',
      // A store keyed under version 2 is marked from its first keyed entry.
      'UPDATE journal_head SET keyed_since = (SELECT MIN(seq) FROM journal WHERE key_id IS NOT NULL)',
      // Once set, the mark stays, and the head row stays. Someone who drops these triggers can still clear
      // it: the key (and anchors) are what they cannot get past.
      `CREATE TRIGGER journal_head_stays_keyed BEFORE UPDATE OF keyed_since ON journal_head
        WHEN OLD.keyed_since IS NOT NULL AND (NEW.keyed_since IS NULL OR NEW.keyed_since <> OLD.keyed_since)
        BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal stays keyed once it is keyed'); END`,
      `CREATE TRIGGER journal_head_no_delete BEFORE DELETE ON journal_head
        BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal head row cannot be deleted'); END`,
    ],
  },
  {
    version: 4,
    name: 'append-only run state: the lists of a started turn as item rows, written once each',
    // Existing state columns stay as they are (a whole state): they are read as before, and a run that
    // goes on writes its next started turn in the new layout.
    statements: [
      `CREATE TABLE run_items (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        part TEXT NOT NULL CHECK (part IN ('messages', 'turns', 'sources')),
        idx INTEGER NOT NULL,
        item_json TEXT NOT NULL,
        PRIMARY KEY (run_id, part, idx)
      ) STRICT`,
      'ALTER TABLE runs ADD COLUMN items_json TEXT',
    ],
  },
  {
    version: 5,
    name: "run events: each run's loop events as appended rows, for readers of another process or a later one",
    statements: [
      `CREATE TABLE run_events (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) STRICT`,
    ],
  },
];
