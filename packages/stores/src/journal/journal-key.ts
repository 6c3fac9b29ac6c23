import { MIN_SEAL_KEY_BYTES, type SealKey, sealKeyProblem, sealKeyRing, sealSecretBytes } from '@toolcircuit/core';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';

/**
 * A key the application holds (never the database): entries chained under it carry its `id`, so keys can
 * rotate. Keep every retired key for as long as entries written under it must be verified. It is core's
 * `SealKey`, checked by the same rules: one key can chain the journal and seal the runner's stored states.
 */
export type JournalKey = SealKey;

/** Keys by id, for verification: every key entries may have been written under. */
export type JournalKeys = readonly JournalKey[];

export const MIN_KEY_BYTES = MIN_SEAL_KEY_BYTES;

/** The key, checked: an id that can be stored and a secret long enough to resist guessing. */
export function checkedJournalKey(key: JournalKey, option = 'journal.key'): JournalKey {
  const problem = sealKeyProblem(key);
  if (problem !== undefined) throw new InvalidStoreOptionsError(option, problem);
  return key;
}

/** The keys as a lookup by id; two different secrets under one id are refused. */
export function keyRing(keys: JournalKeys, option = 'keys'): ReadonlyMap<string, JournalKey> {
  return sealKeyRing(keys, (problem) => {
    throw new InvalidStoreOptionsError(option, problem);
  });
}

/** The secret as bytes (a string is taken as UTF-8). */
export function secretBytes(secret: Uint8Array | string): Buffer {
  const bytes = sealSecretBytes(secret);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
