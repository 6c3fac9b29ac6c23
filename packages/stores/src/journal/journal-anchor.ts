import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@toolcircuit/core';
import { InvalidJournalAnchorError } from '../errors/invalid-journal-anchor-error.js';
import { type JournalKey, secretBytes } from './journal-key.js';
import type { JournalHead } from './journal-record.js';

/**
 * The journal's head taken out of the database: how many entries there were, the hash of the last one, and
 * when. Kept somewhere the database's writers cannot reach (a file on another machine, a log, another
 * store), it makes any truncation, rewind or wipe since then detectable, and any rewrite of the entries
 * up to it. With a key, `mac` (HMAC-SHA256 under that key) also protects the anchor itself.
 */
export interface JournalAnchor extends JournalHead {
  /** ISO time the anchor was taken. */
  readonly at: string;
  /** The key `mac` was made with. */
  readonly keyId?: string;
  readonly mac?: string;
}

/** Where anchors go: the application's choice (append to a file, write to a log, insert into another store). */
export type JournalAnchorSink = (anchor: JournalAnchor) => void | Promise<void>;

/** An anchor of `head`, signed with `key` when one is given. */
export function createJournalAnchor(head: JournalHead, at: string, key?: JournalKey): JournalAnchor {
  const anchor = { seq: head.seq, hash: head.hash, at };
  if (key === undefined) return anchor;
  return { ...anchor, keyId: key.id, mac: anchorMac(key, anchor) };
}

function anchorMac(key: JournalKey, anchor: { seq: number; hash: string; at: string }): string {
  // Domain-separated from entry hashes, so an anchor MAC can never pass for an entry's and back.
  return createHmac('sha256', secretBytes(key.secret))
    .update(
      canonicalJson({
        type: 'toolcircuit-journal-anchor',
        keyId: key.id,
        seq: anchor.seq,
        hash: anchor.hash,
        at: anchor.at,
      }),
      'utf8',
    )
    .digest('hex');
}

/**
 * Checks a keyed anchor's MAC with the keys the verifier holds. Without keys, an unkeyed anchor is taken as
 * given (it is only as trustworthy as the place it was kept); with keys, a taken anchor (one with its time)
 * must be signed, since anchors taken with a key are: an unsigned one may have replaced it. A bare head
 * (`<seq>:<hash>`, no time) is the verifier's own note and is taken as given. Throws
 * `InvalidJournalAnchorError` when the MAC cannot be checked or does not match: an anchor that was forged or
 * changed must not vouch for anything.
 */
export function checkAnchor(anchor: JournalAnchor | JournalHead, keys: ReadonlyMap<string, JournalKey>): void {
  const { keyId, mac, at } = anchor as Partial<JournalAnchor>;
  if (mac === undefined && keyId === undefined) {
    if (keys.size > 0 && at !== undefined) throw unsignedAnchorError();
    return;
  }
  if (mac === undefined || keyId === undefined || at === undefined) {
    throw new InvalidJournalAnchorError('it has a key id or a MAC but not both, with its time: it was altered.', {
      tampered: true,
    });
  }
  const key = keys.get(keyId);
  if (key === undefined) {
    throw new InvalidJournalAnchorError(`it is signed with key "${keyId}", which was not given; give that key.`);
  }
  const expected = Buffer.from(anchorMac(key, { seq: anchor.seq, hash: anchor.hash, at }), 'hex');
  const given = Buffer.from(mac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new InvalidJournalAnchorError(
      `its MAC does not match under key "${keyId}": the anchor was changed or forged.`,
      { tampered: true },
    );
  }
}

/**
 * An anchor from text: the JSON of a `JournalAnchor` (one line of an anchor file), or `<seq>:<hash>` as
 * `journal verify` prints a head. Throws `InvalidJournalAnchorError` for anything else.
 */
export function parseJournalAnchor(text: string): JournalAnchor | JournalHead {
  const trimmed = text.trim();
  const short = /^(\d+):([0-9a-f]{64})$/.exec(trimmed);
  if (short !== null) return { seq: Number(short[1]), hash: short[2] as string };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new InvalidJournalAnchorError('it is neither <seq>:<64 hex digits> nor the JSON of an anchor.');
  }
  const anchor = value as Partial<Record<keyof JournalAnchor, unknown>>;
  if (
    typeof value !== 'object' ||
    value === null ||
    !Number.isSafeInteger(anchor.seq) ||
    (anchor.seq as number) < 0 ||
    typeof anchor.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(anchor.hash) ||
    !(anchor.at === undefined || typeof anchor.at === 'string') ||
    !(anchor.keyId === undefined || typeof anchor.keyId === 'string') ||
    !(anchor.mac === undefined || (typeof anchor.mac === 'string' && /^[0-9a-f]{64}$/.test(anchor.mac)))
  ) {
    throw new InvalidJournalAnchorError(
      'its JSON needs seq (a whole number), hash (64 hex digits) and at most at, keyId, mac.',
    );
  }
  return value as JournalAnchor;
}

/** The last anchor of an anchor file (one JSON anchor per line, as `fileAnchorSink` writes them). */
export function lastAnchorOf(text: string): JournalAnchor | JournalHead {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const last = lines.at(-1);
  if (last === undefined) throw new InvalidJournalAnchorError('the anchor file holds no anchor.');
  return parseJournalAnchor(last);
}

/** An unsigned anchor where keys are in use: anchors taken with a key are signed, so this one may be forged. */
export function unsignedAnchorError(): InvalidJournalAnchorError {
  return new InvalidJournalAnchorError(
    'it carries no MAC, but keys were given: anchors taken with a journal key are signed, so an unsigned one ' +
      'may have replaced the real one. Pass a head you noted yourself as <seq>:<hash>, or take a new anchor with the key.',
    { tampered: true },
  );
}
