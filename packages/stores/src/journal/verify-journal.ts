import { chainHash, GENESIS_HASH } from './journal-chain.js';
import type { JournalHead } from './journal-record.js';

/** A row as stored, before its record is trusted: verification parses and re-hashes the text itself. */
export interface RawJournalRow {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
  readonly recordJson: string;
}

/** What a store gives the verifier: its rows in `seq` order, its head, and a lookup by hash. */
export interface JournalSource {
  rows(): AsyncIterable<RawJournalRow>;
  head(): Promise<JournalHead>;
  /** The seq of the row stored with this hash, if any (used only once the chain breaks). */
  seqOfHash(hash: string): Promise<number | undefined>;
}

/** - `edited`: a row no longer matches its hash, or its number or the head was changed.
 *  - `deleted`: a row the chain links to is missing (in the middle or at the end).
 *  - `reordered`: a row links to one that comes after it.
 *  - `inserted`: rows were added that the chain or the head does not account for. */
export type JournalProblem = 'edited' | 'deleted' | 'reordered' | 'inserted';

export type JournalVerification =
  | { readonly ok: true; readonly entries: number; readonly head: JournalHead }
  | {
      readonly ok: false;
      /** The first entry found wrong: the changed, moved or inserted one, or the first missing one. */
      readonly seq: number;
      readonly problem: JournalProblem;
      readonly message: string;
      /** Rows checked and found sound before the problem. */
      readonly entries: number;
    };

export interface VerifyJournalOptions {
  /**
   * A head saved somewhere else earlier (e.g. published daily). Recomputing the whole chain after an edit
   * would fool the chain alone; it cannot fool a hash kept outside the store.
   */
  readonly anchor?: JournalHead;
}

/**
 * Walks the chain once and reports the first problem. Each row must match its own hash (else `edited`),
 * link to the row before it (else `deleted`, `reordered` or `inserted`, told apart by where the link
 * points), and carry the next number; the store's head must be the last row.
 */
export async function verifyJournal(
  source: JournalSource,
  options: VerifyJournalOptions = {},
): Promise<JournalVerification> {
  let previous: JournalHead = { seq: 0, hash: GENESIS_HASH };
  let entries = 0;
  const { anchor } = options;
  let anchorSeen = anchor === undefined || anchor.seq === 0;
  const fail = (seq: number, problem: JournalProblem, message: string): JournalVerification => ({
    ok: false,
    seq,
    problem,
    message,
    entries,
  });

  for await (const row of source.rows()) {
    let record: unknown;
    try {
      record = JSON.parse(row.recordJson);
    } catch {
      return fail(row.seq, 'edited', `entry ${row.seq} is not valid JSON any more: it was edited in the store.`);
    }
    if (chainHash(row.prevHash, record) !== row.hash) {
      return fail(
        row.seq,
        'edited',
        `entry ${row.seq} does not match its hash: its content or its link was changed after it was written.`,
      );
    }
    if (row.prevHash !== previous.hash) return brokenLink(row, previous, source, fail);
    if (row.seq !== previous.seq + 1) {
      return fail(
        row.seq,
        'edited',
        `entry ${row.seq} follows entry ${previous.seq} in the chain but is numbered ${row.seq}: its number was changed.`,
      );
    }
    if (anchor !== undefined && row.seq === anchor.seq) {
      if (row.hash !== anchor.hash) {
        return fail(
          row.seq,
          'edited',
          `entry ${row.seq} differs from the anchor saved for it: the journal up to it was rewritten and re-hashed.`,
        );
      }
      anchorSeen = true;
    }
    previous = { seq: row.seq, hash: row.hash };
    entries += 1;
  }

  const head = await source.head();
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
  if (!anchorSeen && anchor !== undefined) {
    return fail(anchor.seq, 'deleted', `entry ${anchor.seq}, which the anchor refers to, is missing.`);
  }
  return { ok: true, entries, head: previous };
}

async function brokenLink(
  row: RawJournalRow,
  previous: JournalHead,
  source: JournalSource,
  fail: (seq: number, problem: JournalProblem, message: string) => JournalVerification,
): Promise<JournalVerification> {
  const linked = row.prevHash === GENESIS_HASH ? 0 : await source.seqOfHash(row.prevHash);
  if (linked === undefined) {
    const missing =
      row.seq > previous.seq + 1
        ? `entries ${range(previous.seq + 1, row.seq - 1)} were deleted`
        : `an entry between ${previous.seq} and ${row.seq} was deleted and the rest renumbered`;
    return fail(previous.seq + 1, 'deleted', `${missing}: entry ${row.seq} links to an entry that is not there.`);
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
