import { checkAnchor, type JournalAnchor } from './journal-anchor.js';
import { chainHash, GENESIS_HASH, keyedChainHash, storedRowHash } from './journal-chain.js';
import { type JournalKey, type JournalKeys, keyRing } from './journal-key.js';
import type { JournalHead, StoredJournalHead } from './journal-record.js';
import { type RunTables, RunTablesCheck } from './run-tables-check.js';

/** A row as stored, before its record is trusted: verification parses and re-hashes the text itself. */
export interface RawJournalRow {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
  readonly recordJson: string;
  /** The key the row was chained under; null or absent: the unkeyed SHA-256 chain. */
  readonly keyId?: string | null;
  /** The run id column (what `readJournal({ runId })` filters on); compared with the record's. */
  readonly runId?: string;
  /** The kind column; compared with the record's. */
  readonly kind?: string;
}

/** What a store gives the verifier: its rows in `seq` order, its head, and a lookup by hash. */
export interface JournalSource {
  rows(): AsyncIterable<RawJournalRow>;
  /** Undefined when the store's head row is gone. Read once, before the rows (one snapshot). */
  head(): Promise<StoredJournalHead | undefined>;
  /** The seq of the row stored with this hash, if any (used only once the chain breaks). */
  seqOfHash(hash: string): Promise<number | undefined>;
  /** The store's run tables, checked against the journal once its chain checks out (absent: not checked). */
  readonly runTables?: RunTables;
}

/**
 * - `edited`: an entry does not match its hash (or MAC), a column disagrees with it, or its number, its
 *   link or the head was changed.
 * - `deleted`: an entry the chain links to, or the head records, is missing.
 * - `reordered`: an entry links to one that comes after it.
 * - `inserted`: entries were added that the chain or the head does not account for.
 * - `truncated`: the journal ends before an anchor taken earlier, or before the first keyed entry the store's
 *   head records: its tail was cut (head rewound) or it was wiped.
 * - `unkeyed`: an entry carries no key id, when keys were given or the store was keyed before it: anyone
 *   could have written it (or its key id was stripped and it was re-hashed).
 * - `unverifiable`: an entry is chained under a key that was not given; it could not be checked.
 * - `head_missing`: the store's head row is gone, so a deleted tail could not be told.
 * - `run_mismatch`: the chain checks out, but the run tables (outside it) contradict it: a decided call's
 *   approval, tool or arguments differ from the entry that decided it, or no entry did; a call points to
 *   another call's answer; a run's entries name another session or human than the run.
 * - `corrupt`: the database itself is damaged: entries from `seq` on cannot be read (restore a backup).
 */
export type JournalProblem =
  | 'edited'
  | 'deleted'
  | 'reordered'
  | 'inserted'
  | 'truncated'
  | 'unkeyed'
  | 'unverifiable'
  | 'head_missing'
  | 'run_mismatch'
  | 'corrupt';

export type JournalVerification =
  | {
      readonly ok: true;
      readonly entries: number;
      readonly head: JournalHead;
      /** Entries protected by the unkeyed chain only (all of them when no key is used). */
      readonly unkeyedEntries: number;
      /** The anchor the journal was checked against, if any. */
      readonly anchor?: JournalHead;
    }
  | {
      readonly ok: false;
      /** The first entry that does not check out: the changed, moved or inserted one, or the first missing one. */
      readonly seq: number;
      readonly problem: JournalProblem;
      readonly message: string;
      /** Entries before it that were checked and found sound (never one that could not be checked). */
      readonly entries: number;
    };

export interface VerifyJournalOptions {
  /**
   * A head taken out of the store earlier (`anchorJournal`, `toolcircuit journal anchor`): the journal must
   * still contain it unchanged and reach at least that far. Catches truncation, rewind and wipe since then,
   * and a history rewritten and re-hashed up to it. A keyed anchor's MAC is checked with `keys`.
   */
  readonly anchor?: JournalAnchor | JournalHead;
  /**
   * Every key entries may have been written under (old ones too, after a rotation). Given keys, every
   * entry must be keyed and check out under its key, except the first `acceptUnkeyedUpTo`.
   */
  readonly keys?: JournalKeys;
  /**
   * Entries up to this seq may be unkeyed (written before keys were turned on); they are protected by
   * the unkeyed chain only, and reported as such. Default 0.
   */
  readonly acceptUnkeyedUpTo?: number;
}

type Fail = (seq: number, problem: JournalProblem, message: string) => JournalVerification;

/**
 * Walks the chain once and reports the first problem. Each entry must match its own hash (or its MAC
 * under its key), agree with its index columns, link to the entry before it (else `deleted`, `reordered`
 * or `inserted`, told apart by where the link points) and carry the next number; the store's head must be
 * the last entry, and an anchor must be in the chain. An unkeyed entry is only vouched for once the next
 * entry (or the head) links to it: anyone could have re-hashed it.
 *
 * A journal that was ever keyed never verifies as intact without its key: its entries name their key
 * (`unverifiable` without it), and the store's head keeps the first keyed entry's number, so entries from
 * there on without a key id are `unkeyed` and a journal that no longer reaches it is `truncated`, keys
 * given or not.
 */
export async function verifyJournal(
  source: JournalSource,
  options: VerifyJournalOptions = {},
): Promise<JournalVerification> {
  const ring = keyRing(options.keys ?? []);
  const keyed = ring.size > 0;
  const acceptUnkeyedUpTo = options.acceptUnkeyedUpTo ?? 0;
  const { anchor } = options;
  if (anchor !== undefined) checkAnchor(anchor, ring);
  let previous: JournalHead = { seq: 0, hash: GENESIS_HASH };
  let vouched = 0;
  let unkeyedEntries = 0;
  const fail: Fail = (seq, problem, message) => ({ ok: false, seq, problem, message, entries: vouched });
  const head = await source.head();
  const keyedSince = head?.keyedSince;
  const runTables = source.runTables === undefined ? undefined : await RunTablesCheck.of(source.runTables);

  for await (const row of source.rows()) {
    let record: { runId?: unknown; kind?: unknown } & Readonly<Record<string, unknown>>;
    try {
      record = JSON.parse(row.recordJson);
    } catch {
      return fail(row.seq, 'edited', `entry ${row.seq} is not valid JSON any more: it was edited in the store.`);
    }
    const keyId = row.keyId ?? undefined;
    let key: JournalKey | undefined;
    if (keyId !== undefined) {
      key = ring.get(keyId);
      if (key === undefined) {
        return fail(
          row.seq,
          'unverifiable',
          keyed
            ? `entry ${row.seq} is chained under key "${keyId}", which is not among the keys given: it could not be checked.`
            : `entry ${row.seq} is chained under key "${keyId}": give that key to check it.`,
        );
      }
    } else if (keyedSince !== undefined && row.seq >= keyedSince) {
      return fail(
        row.seq,
        'unkeyed',
        `entry ${row.seq} carries no key id, but the store has chained its entries under a key since entry ` +
          `${keyedSince}: its key id was removed and it was re-hashed, or it was written without the key.`,
      );
    } else if (keyed && row.seq > acceptUnkeyedUpTo) {
      return fail(
        row.seq,
        'unkeyed',
        `entry ${row.seq} carries no key id, so anyone with write access could have written it (if unkeyed entries ` +
          `before keys were turned on are expected, accept them up to their last seq).`,
      );
    }
    if (storedRowHash(row.prevHash, row.recordJson, key) !== row.hash && !parsedHashMatches(row, record, key)) {
      return fail(
        row.seq,
        'edited',
        key === undefined
          ? `entry ${row.seq} does not match its hash: its content or its link was changed after it was written.`
          : `entry ${row.seq} does not match its MAC under key "${key.id}": it was changed, or written without the key.`,
      );
    }
    const column = columnMismatch(row, record);
    if (column !== undefined) return fail(row.seq, 'edited', `entry ${row.seq}'s ${column}: the column was changed.`);
    if (row.prevHash !== previous.hash) return brokenLink(row, previous, vouched === previous.seq, source, fail);
    if (row.seq !== previous.seq + 1) {
      return fail(
        row.seq,
        'edited',
        `entry ${row.seq} follows entry ${previous.seq} in the chain but is numbered ${row.seq}: its number was changed.`,
      );
    }
    if (anchor !== undefined && row.seq === anchor.seq && row.hash !== anchor.hash) {
      return fail(
        row.seq,
        'edited',
        `entry ${row.seq} differs from the anchor taken of it: the journal up to it was rewritten and re-hashed.`,
      );
    }
    // A keyed entry vouches for itself and, through its MAC over the link, for every entry before it.
    vouched = key === undefined ? row.seq - 1 : row.seq;
    if (key === undefined) unkeyedEntries += 1;
    previous = { seq: row.seq, hash: row.hash };
    runTables?.see(row.seq, record);
  }

  if (head === undefined) {
    return fail(
      previous.seq + 1,
      'head_missing',
      `the store's head row is missing: entries after ${previous.seq} may have been deleted, and that cannot be told.`,
    );
  }
  if (head.seq > previous.seq) {
    return fail(
      previous.seq + 1,
      'deleted',
      `entries ${range(previous.seq + 1, head.seq)} are missing from the end: the store's head records ${head.seq} entries.`,
    );
  }
  if (head.seq < previous.seq) {
    return fail(
      head.seq + 1,
      'inserted',
      `entries ${range(head.seq + 1, previous.seq)} were added without the store's head knowing them.`,
    );
  }
  if (head.hash !== previous.hash) {
    return fail(
      head.seq,
      'edited',
      `the store's head does not match entry ${head.seq}: the head or the entry was changed.`,
    );
  }
  vouched = previous.seq;
  if (keyedSince !== undefined && keyedSince > previous.seq) {
    return fail(
      previous.seq + 1,
      'truncated',
      `the journal ends at entry ${previous.seq}, but the store's head records entry ${keyedSince} as its first ` +
        `keyed entry: entries ${range(previous.seq + 1, keyedSince)} and later were removed (the journal wiped, ` +
        'or its tail cut and the head rewound).',
    );
  }
  if (anchor !== undefined && anchor.seq > previous.seq) {
    const when = 'at' in anchor && anchor.at !== undefined ? ` taken at ${anchor.at}` : '';
    return fail(
      previous.seq + 1,
      'truncated',
      `the journal ends at entry ${previous.seq}, but the anchor${when} records ${anchor.seq}: entries ` +
        `${range(previous.seq + 1, anchor.seq)} were removed (the tail cut and the head rewound, or the journal wiped).`,
    );
  }
  const mismatch = runTables?.result(previous.seq);
  if (mismatch !== undefined) return fail(mismatch.seq, 'run_mismatch', mismatch.message);
  return {
    ok: true,
    entries: previous.seq,
    head: previous,
    unkeyedEntries,
    ...(anchor === undefined ? {} : { anchor: { seq: anchor.seq, hash: anchor.hash } }),
  };
}

/** The slow path: the row's text is not in canonical layout (e.g. a snapshot written by other tools). */
function parsedHashMatches(row: RawJournalRow, record: unknown, key: JournalKey | undefined): boolean {
  const expected = key === undefined ? chainHash(row.prevHash, record) : keyedChainHash(key, row.prevHash, record);
  return expected === row.hash;
}

/** Which index column disagrees with the hashed record, in words; undefined when both agree. */
function columnMismatch(row: RawJournalRow, record: { runId?: unknown; kind?: unknown }): string | undefined {
  if (row.runId !== undefined && row.runId !== record.runId) {
    return `run id column says "${row.runId}" but the entry was written for run "${String(record.runId)}"`;
  }
  if (row.kind !== undefined && row.kind !== record.kind) {
    return `kind column says "${row.kind}" but the entry is a "${String(record.kind)}"`;
  }
  return undefined;
}

async function brokenLink(
  row: RawJournalRow,
  previous: JournalHead,
  previousVouched: boolean,
  source: JournalSource,
  fail: Fail,
): Promise<JournalVerification> {
  const linked = row.prevHash === GENESIS_HASH ? 0 : await source.seqOfHash(row.prevHash);
  if (linked === undefined) {
    if (row.seq > previous.seq + 1) {
      return fail(
        previous.seq + 1,
        'deleted',
        `entries ${range(previous.seq + 1, row.seq - 1)} were deleted: entry ${row.seq} links to an entry that is not there.`,
      );
    }
    if (previousVouched) {
      // The entry before checked out on its own (keyed, or the start): what this one linked to is gone.
      return fail(
        previous.seq + 1,
        'deleted',
        `an entry between ${previous.seq} and ${row.seq} was deleted and the rest renumbered: entry ${row.seq} links to an entry that is not there.`,
      );
    }
    // Unkeyed, the two readings cannot be told apart, so entry `previous` is not vouched for.
    return fail(
      previous.seq,
      'edited',
      `entry ${row.seq} does not link to entry ${previous.seq}: entry ${previous.seq} was changed and re-hashed, ` +
        `or entries after it were deleted and the rest renumbered.`,
    );
  }
  if (linked >= row.seq || linked === 0) {
    return fail(
      row.seq,
      'reordered',
      `entry ${row.seq} was moved: in the chain it comes right after ${linked === 0 ? 'the start' : `entry ${linked}`}.`,
    );
  }
  return fail(
    linked + 1,
    'inserted',
    `entries ${range(linked + 1, row.seq - 1)} are not part of the chain: entry ${row.seq} links straight to entry ${linked}.`,
  );
}

function range(from: number, to: number): string {
  return from === to ? String(from) : `${from}–${to}`;
}
