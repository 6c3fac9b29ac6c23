import { GENESIS_HASH } from '../journal/journal-chain.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import type { Migration } from '../sql/sql-migrations.js';

/** Versioned schema of the PostgreSQL store, inside its own schema. Append new versions; never edit one. */
export function postgresMigrations(schema: string): readonly Migration[] {
  const s = quoteIdentifier(schema);
  return [
    {
      version: 1,
      name: 'runs, decided calls and the hash-chained journal',
      statements: [
        `CREATE TABLE ${s}.runs (
          run_id TEXT PRIMARY KEY,
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
        )`,
        `CREATE INDEX runs_by_status ON ${s}.runs (status, updated_at)`,
        `CREATE TABLE ${s}.run_calls (
          run_id TEXT NOT NULL REFERENCES ${s}.runs (run_id),
          turn INTEGER NOT NULL,
          call_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          tool_name TEXT NOT NULL,
          input_digest TEXT NOT NULL,
          approved SMALLINT NOT NULL CHECK (approved IN (0, 1)),
          note TEXT,
          state TEXT NOT NULL CHECK (state IN ('intended', 'started', 'done', 'unknown')),
          result_json TEXT,
          journal_seq BIGINT,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (run_id, turn, call_id)
        )`,
        `CREATE TABLE ${s}.journal (
          seq BIGINT PRIMARY KEY,
          run_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL,
          record_json TEXT NOT NULL
        )`,
        `CREATE INDEX journal_by_run ON ${s}.journal (run_id, seq)`,
        `CREATE INDEX journal_by_hash ON ${s}.journal (hash)`,
        `CREATE TABLE ${s}.journal_head (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          seq BIGINT NOT NULL,
          hash TEXT NOT NULL
        )`,
        `INSERT INTO ${s}.journal_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}')`,
        // Append-only in the database too; the hash chain still catches changes made by someone who drops these.
        `CREATE FUNCTION ${s}.journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $body$
          BEGIN RAISE EXCEPTION 'the toolcircuit journal is append-only'; END
        $body$`,
        `CREATE TRIGGER journal_no_change BEFORE UPDATE OR DELETE ON ${s}.journal
          FOR EACH ROW EXECUTE FUNCTION ${s}.journal_append_only()`,
        `CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON ${s}.journal
          FOR EACH STATEMENT EXECUTE FUNCTION ${s}.journal_append_only()`,
      ],
    },
    {
      version: 2,
      name: 'keyed journal entries: the id of the key each entry is chained under',
      // NULL for every existing entry: they stay on the unkeyed chain and verify as before.
      statements: [`ALTER TABLE ${s}.journal ADD COLUMN key_id TEXT`],
    },
    {
      version: 3,
      name: 'keyed head: the first keyed entry, kept so a keyed journal cannot pass for an unkeyed one',
      statements: [
        `ALTER TABLE ${s}.journal_head ADD COLUMN keyed_since BIGINT`,
        // A store keyed under version 2 is marked from its first keyed entry.
        `UPDATE ${s}.journal_head SET keyed_since = (SELECT MIN(seq) FROM ${s}.journal WHERE key_id IS NOT NULL)`,
        // Once set, the mark stays, and the head row stays. Someone who drops these triggers can still clear
        // it: the key (and anchors) are what they cannot get past.
        `CREATE FUNCTION ${s}.journal_head_stays_keyed() RETURNS trigger LANGUAGE plpgsql AS $body$
          BEGIN
            IF TG_OP <> 'UPDATE' THEN RAISE EXCEPTION 'the toolcircuit journal head row cannot be deleted'; END IF;
            IF OLD.keyed_since IS NOT NULL AND NEW.keyed_since IS DISTINCT FROM OLD.keyed_since THEN
              RAISE EXCEPTION 'the toolcircuit journal stays keyed once it is keyed';
            END IF;
            RETURN NEW;
          END
        $body$`,
        `CREATE TRIGGER journal_head_keyed BEFORE UPDATE OR DELETE ON ${s}.journal_head
          FOR EACH ROW EXECUTE FUNCTION ${s}.journal_head_stays_keyed()`,
        `CREATE TRIGGER journal_head_no_truncate BEFORE TRUNCATE ON ${s}.journal_head
          FOR EACH STATEMENT EXECUTE FUNCTION ${s}.journal_head_stays_keyed()`,
      ],
    },
    {
      version: 4,
      name: 'append-only run state: the lists of a started turn as item rows, written once each',
      // Existing state columns stay as they are (a whole state): they are read as before, and a run that
      // goes on writes its next started turn in the new layout.
      statements: [
        `CREATE TABLE ${s}.run_items (
          run_id TEXT NOT NULL REFERENCES ${s}.runs (run_id),
          part TEXT NOT NULL CHECK (part IN ('messages', 'turns', 'sources')),
          idx INTEGER NOT NULL,
          item_json TEXT NOT NULL,
          PRIMARY KEY (run_id, part, idx)
        )`,
        `ALTER TABLE ${s}.runs ADD COLUMN items_json TEXT`,
      ],
    },
    {
      version: 5,
      name: "run events: each run's loop events as appended rows, for readers of another process or a later one",
      statements: [
        `CREATE TABLE ${s}.run_events (
          run_id TEXT NOT NULL REFERENCES ${s}.runs (run_id),
          seq BIGINT NOT NULL,
          type TEXT NOT NULL,
          data TEXT NOT NULL,
          PRIMARY KEY (run_id, seq)
        )`,
      ],
    },
  ];
}
