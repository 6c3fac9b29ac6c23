import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';

/**
 * A key the application holds (never the database): entries chained under it carry its `id`, so keys can
 * rotate. Keep every retired key for as long as entries written under it must be verified.
 */
export interface JournalKey {
  /** Stored on each entry: letters, digits, `.`, `_`, `-`; at most 64. */
  readonly id: string;
  /** At least 32 bytes (e.g. `openssl rand -hex 32`); a string is taken as its UTF-8 bytes. */
  readonly secret: Uint8Array | string;
}

/** Keys by id, for verification: every key entries may have been written under. */
export type JournalKeys = readonly JournalKey[];

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const MIN_KEY_BYTES = 32;

/** The key, checked: an id that can be stored and a secret long enough to resist guessing. */
export function checkedJournalKey(key: JournalKey, option = 'journal.key'): JournalKey {
  if (!KEY_ID.test(key.id)) {
    throw new InvalidStoreOptionsError(option, `key id "${key.id}" must be 1-64 letters, digits, ".", "_" or "-".`);
  }
  const bytes = secretBytes(key.secret).byteLength;
  if (bytes < MIN_KEY_BYTES) {
    throw new InvalidStoreOptionsError(
      option,
      `the secret of key "${key.id}" has ${bytes} bytes; use at least ${MIN_KEY_BYTES} random bytes (e.g. \`openssl rand -hex 32\`).`,
    );
  }
  return key;
}

/** The keys as a lookup by id; two different secrets under one id are refused. */
export function keyRing(keys: JournalKeys, option = 'keys'): ReadonlyMap<string, JournalKey> {
  const ring = new Map<string, JournalKey>();
  for (const key of keys) {
    checkedJournalKey(key, option);
    const known = ring.get(key.id);
    if (known !== undefined && !sameSecret(known.secret, key.secret)) {
      throw new InvalidStoreOptionsError(option, `two different secrets are given for key id "${key.id}".`);
    }
    ring.set(key.id, key);
  }
  return ring;
}

function sameSecret(a: Uint8Array | string, b: Uint8Array | string): boolean {
  return secretBytes(a).equals(secretBytes(b));
}

/** The secret as bytes (a string is taken as UTF-8). */
export function secretBytes(secret: Uint8Array | string): Buffer {
  return typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
}
