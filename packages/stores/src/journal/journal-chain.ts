import { createHmac, hash } from 'node:crypto';
import { canonicalJson } from '@toolcircuit/core';
import type { JournalKey } from './journal-key.js';

/** The `prevHash` of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of an unkeyed row: SHA-256 over the canonical JSON of its record and the previous row's hash.
 * Anyone can compute it, so it catches accidents and clumsy edits, not someone who re-hashes what they
 * change. The position (`seq`) is deliberately not hashed: the chain itself fixes the order, which is what
 * lets `verify` tell a moved row ("reordered") from a changed one ("edited").
 */
export function chainHash(prevHash: string, record: unknown): string {
  return hash('sha256', canonicalJson({ prevHash, record }), 'hex');
}

/**
 * The hash of a keyed row: HMAC-SHA256 under the application's key over the record, the previous row's
 * hash and the key id. Without the key nobody can write a row (or re-hash a changed one) that checks out.
 */
export function keyedChainHash(key: JournalKey, prevHash: string, record: unknown): string {
  return createHmac('sha256', key.secret)
    .update(canonicalJson({ keyId: key.id, prevHash, record }), 'utf8')
    .digest('hex');
}

/**
 * The hash of a stored row computed from its text: the same value as `chainHash` / `keyedChainHash` of the
 * parsed record whenever the text is canonical JSON (what the stores write), without parsing and
 * re-serialising it. The keys are already in canonical order and the prefix is written with
 * `JSON.stringify`, so no record text can pass for another split of the same bytes. Verification tries this
 * first and falls back to the parsed record, so a row stored in another JSON layout still checks out.
 */
export function storedRowHash(prevHash: string, recordJson: string, key?: JournalKey): string {
  const link = `"prevHash":${JSON.stringify(prevHash)},"record":${recordJson}}`;
  // The one-shot `hash` (Node ≥ 20.12) is several times cheaper than a Hash object for one text.
  if (key === undefined) return hash('sha256', `{${link}`, 'hex');
  return createHmac('sha256', key.secret)
    .update(`{"keyId":${JSON.stringify(key.id)},${link}`, 'utf8')
    .digest('hex');
}
