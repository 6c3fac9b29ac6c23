import { createHash, createHmac } from 'node:crypto';
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
  return createHash('sha256').update(canonicalJson({ prevHash, record }), 'utf8').digest('hex');
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
