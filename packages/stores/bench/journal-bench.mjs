#!/usr/bin/env node
// Journal scaling on SQLite: appending must cost the same at any journal size (it reads and moves the
// head row only) and verifying must grow linearly (one pass over the rows). Run the BUILT package:
//   pnpm --filter @toolcircuit/stores build && pnpm --filter @toolcircuit/stores bench:journal
//     [--sizes 10000,100000,1000000] [--chains keyed,unkeyed]
//
// The journal is grown to each size by inserting chained rows directly (computed with the store's own
// hash functions, exactly what appends would write): a million appends one transaction each would take
// an hour of fsyncs and measure the disk. At each size it then times APPENDS through the store API
// (`store.journal.append`, one transaction each, synchronous = FULL as in production) and a full VERIFY,
// keyed (HMAC-SHA256) and unkeyed. The data directory is a temporary one, removed at the end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '@toolcircuit/core';
import { chainHash, keyedChainHash } from '@toolcircuit/stores';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import Database from 'better-sqlite3';

function flag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return (index === -1 ? fallback : process.argv[index + 1]).split(',');
}
const SIZES = flag('sizes', '10000,100000,1000000').map(Number);
// Keyed is what an audit needs; `--chains keyed,unkeyed` measures the unkeyed chain too (twice the time).
const CHAINS = flag('chains', 'keyed');
const APPENDS = 500;
const INSERT_BATCH = 20_000;

/** A call record the size of a typical one (≈ 0.5 KB of canonical JSON). */
function entry(n) {
  return {
    at: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString(),
    runId: `run-${Math.floor(n / 8)}`,
    sessionId: 'session-7',
    humanId: 'marie',
    turn: 1 + (n % 4),
    callId: `call-${n}`,
    toolName: 'lookup_case',
    input: { number: `A-${n}`, fields: ['status', 'owner', 'history'], note: 'looked up for the weekly review' },
    inputDigest: 'a'.repeat(64),
    verdict: 'executed',
    durationMs: 3,
    outputDigest: 'b'.repeat(64),
  };
}

function callRecord(n) {
  return { kind: 'call', ...entry(n) };
}

/** Grows the journal from its head to `size` rows, in large transactions, as appends would have chained them. */
function grow(file, key, size) {
  const db = new Database(file);
  try {
    db.exec('DROP TRIGGER IF EXISTS journal_no_update; DROP TRIGGER IF EXISTS journal_no_delete');
    const insert = db.prepare(
      'INSERT INTO journal (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const moveHead = db.prepare('UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1');
    let head = db.prepare('SELECT seq, hash FROM journal_head WHERE id = 1').get();
    while (head.seq < size) {
      const until = Math.min(size, head.seq + INSERT_BATCH);
      db.transaction(() => {
        let { seq, hash } = head;
        while (seq < until) {
          seq += 1;
          const record = callRecord(seq);
          const recordJson = canonicalJson(record);
          // The public chain hashes: for canonical record text, the very hash the stores write and verify.
          const next = key === undefined ? chainHash(hash, record) : keyedChainHash(key, hash, record);
          insert.run(seq, record.runId, 'call', hash, next, recordJson, key?.id ?? null);
          hash = next;
        }
        moveHead.run(seq, hash);
        head = { seq, hash };
      })();
    }
    // The triggers come back as the migration wrote them.
    db.exec(`CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
      BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal is append-only'); END;
      CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
      BEGIN SELECT RAISE(ABORT, 'the toolcircuit journal is append-only'); END`);
  } finally {
    db.close();
  }
}

function cpuMicros(since) {
  const { user, system } = process.cpuUsage(since);
  return user + system;
}

async function measure(file, key, size) {
  const store = await openSqliteStore({ file, ...(key === undefined ? {} : { journal: { key } }) });
  try {
    const head = await store.journalHead();
    if (head.seq !== size) throw new Error(`expected ${size} entries, found ${head.seq}`);
    // Wall time, and this process's CPU time: on a shared machine the CPU time is the steadier of the two.
    const appendStart = process.hrtime.bigint();
    const appendCpu = process.cpuUsage();
    for (let i = 0; i < APPENDS; i += 1) await store.journal.append(entry(size + i + 1));
    const appendUs = Number(process.hrtime.bigint() - appendStart) / 1000 / APPENDS;
    const appendCpuUs = cpuMicros(appendCpu) / APPENDS;
    const verifyStart = process.hrtime.bigint();
    const verifyCpu = process.cpuUsage();
    const verification = await store.verifyJournal();
    const verifySeconds = Number(process.hrtime.bigint() - verifyStart) / 1e9;
    const verifyCpuSeconds = cpuMicros(verifyCpu) / 1e6;
    if (!verification.ok) throw new Error(`verify failed: ${verification.message}`);
    return { appendUs, appendCpuUs, verifySeconds, verifyCpuSeconds, entries: verification.entries };
  } finally {
    await store.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-journal-bench-'));
const key = { id: 'bench', secret: randomBytes(32).toString('hex') };
const rows = [];
try {
  for (const label of CHAINS) {
    const chainKey = label === 'keyed' ? key : undefined;
    const file = join(dir, `${label}.sqlite`);
    await (await openSqliteStore({ file })).close();
    for (const target of SIZES) {
      const growStart = Date.now();
      grow(file, chainKey, target);
      const growSeconds = (Date.now() - growStart) / 1000;
      const result = await measure(file, chainKey, target);
      const mb = statSync(file).size / 1e6;
      rows.push({ chain: label, ...result, entries: target, verified: result.entries, growSeconds, mb });
      process.stderr.write(
        `${label} ${target}: append ${result.appendUs.toFixed(0)} µs (CPU ${result.appendCpuUs.toFixed(0)} µs), verify ${result.verifySeconds.toFixed(2)} s (CPU ${result.verifyCpuSeconds.toFixed(2)} s) (${mb.toFixed(0)} MB, grown in ${growSeconds.toFixed(1)} s)\n`,
      );
      // The measured appends stay in the journal; the next size grows from there.
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `| chain | entries | append, µs per entry (mean of ${APPENDS}): wall / CPU | verify whole journal, s: wall / CPU | verify, µs per entry: wall / CPU | file (MB) |`,
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) {
  const perEntry = (seconds) => ((seconds * 1e6) / row.verified).toFixed(1);
  console.log(
    `| ${row.chain} | ${row.entries.toLocaleString('en-US')} | ${row.appendUs.toFixed(0)} / ${row.appendCpuUs.toFixed(0)} | ${row.verifySeconds.toFixed(2)} / ${row.verifyCpuSeconds.toFixed(2)} | ${perEntry(row.verifySeconds)} / ${perEntry(row.verifyCpuSeconds)} | ${row.mb.toFixed(0)} |`,
  );
}
