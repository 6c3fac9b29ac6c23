/**
 * A key the application holds (never the database, never the client): what it seals carries the key's
 * `id`, so keys can rotate. The stores' keyed journal takes the very same keys (`JournalKey`), checked by
 * the same rules. Keep every retired key for as long as something sealed under it must be checked.
 */
export interface SealKey {
  /** Stored with what it seals: letters, digits, `.`, `_`, `-`; at most 64. */
  readonly id: string;
  /** At least 32 bytes (e.g. `openssl rand -hex 32`); a string is taken as its UTF-8 bytes. */
  readonly secret: Uint8Array | string;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const MIN_SEAL_KEY_BYTES = 32;

/** What is wrong with a key (an id that cannot be stored, a secret too short to resist guessing), if anything. */
export function sealKeyProblem(key: SealKey): string | undefined {
  if (typeof key?.id !== 'string' || !KEY_ID.test(key.id)) {
    return `key id "${String(key?.id)}" must be 1-64 letters, digits, ".", "_" or "-".`;
  }
  const secret: unknown = key.secret;
  if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) {
    return `the secret of key "${key.id}" must be a string or bytes.`;
  }
  const bytes = sealSecretBytes(secret).byteLength;
  if (bytes < MIN_SEAL_KEY_BYTES) {
    return `the secret of key "${key.id}" has ${bytes} bytes; use at least ${MIN_SEAL_KEY_BYTES} random bytes (e.g. \`openssl rand -hex 32\`).`;
  }
  return undefined;
}

/**
 * The keys as a lookup by id, each checked (`fail` is given the problem: each package throws its own typed
 * error); two different secrets under one id are refused.
 */
export function sealKeyRing(keys: readonly SealKey[], fail: (problem: string) => never): ReadonlyMap<string, SealKey> {
  const ring = new Map<string, SealKey>();
  for (const key of keys) {
    const problem = sealKeyProblem(key);
    if (problem !== undefined) fail(problem);
    const known = ring.get(key.id);
    if (known !== undefined && !sameBytes(sealSecretBytes(known.secret), sealSecretBytes(key.secret))) {
      fail(`two different secrets are given for key id "${key.id}".`);
    }
    ring.set(key.id, key);
  }
  return ring;
}

/** The secret as bytes (a string is taken as UTF-8). */
export function sealSecretBytes(secret: Uint8Array | string): Uint8Array {
  return typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
