import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import { type SealKey, sealKeyRing } from './seal-key.js';

/**
 * Sealing of the states a run leaves for later (`LoopOptions.seal`): every paused and interrupted state
 * the loop returns carries an HMAC-SHA256 of its content under `key`, and `resumeLoop` / `continueLoop`
 * refuse a state whose seal does not check out under `key` or one of `retiredKeys` (or that has none):
 * a state stored outside the application (a database others can write, a client) cannot be altered or
 * forged to run a call nobody confirmed.
 */
export interface SealOptions {
  /** Seals what the loop returns; at least 32 random bytes, held by the application. */
  readonly key: SealKey;
  /** Keys states may still be sealed under (rotation): they are checked, nothing new is sealed with them. */
  readonly retiredKeys?: readonly SealKey[];
}

/** Every key a sealed state may name, by id; throws `InvalidLoopOptionsError` for a key that cannot work. */
export function sealKeysOf(seal: SealOptions): ReadonlyMap<string, SealKey> {
  const known = keysOf.get(seal);
  if (known !== undefined) return known;
  if (typeof seal !== 'object' || seal === null || typeof seal.key !== 'object' || seal.key === null) {
    throw new InvalidLoopOptionsError(
      'seal',
      'give { key: { id, secret } } (and retiredKeys, if any), or leave it out.',
    );
  }
  const fail =
    (option: string) =>
    (problem: string): never => {
      throw new InvalidLoopOptionsError(option, problem);
    };
  sealKeyRing([seal.key], fail('seal.key'));
  const ring = sealKeyRing([seal.key, ...(seal.retiredKeys ?? [])], fail('seal.retiredKeys'));
  keysOf.set(seal, ring);
  return ring;
}

/** Checked once per options object: a run resumed many times with the same options checks its keys once. */
const keysOf = new WeakMap<SealOptions, ReadonlyMap<string, SealKey>>();
