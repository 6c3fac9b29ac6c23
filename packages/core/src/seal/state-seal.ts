import { StateSealError } from '../errors/state-seal-error.js';
import { canonicalJson } from '../json/canonical-json.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import type { SealKey } from './seal-key.js';
import { type SealOptions, sealKeysOf } from './seal-options.js';

/** A state's seal: which key, and the HMAC-SHA256 (hex) of the state's content under it. */
export interface StateSeal {
  readonly keyId: string;
  readonly mac: string;
}

/**
 * What a seal is for, part of what it signs: a seal made for one kind of state never checks out on another
 * (`paused-run`, `interrupted-run`; a durable store names its own, e.g. `started-turn`).
 */
export type SealedKind = string;

/**
 * The seal of a state given the canonical JSON of its content (everything but `seal`): the HMAC, under the
 * key, of `canonicalJson({ keyId, kind, state })`, written here from the state's text so that a caller who
 * has that text already does not serialise the state again.
 */
export function sealOfText(kind: SealedKind, stateText: string, key: SealKey): StateSeal {
  const signed = `{"keyId":${JSON.stringify(key.id)},"kind":${JSON.stringify(kind)},"state":${stateText}}`;
  const mac = nodeCrypto().createHmac('sha256', key.secret).update(signed, 'utf8').digest('hex');
  return { keyId: key.id, mac };
}

/** The state with its seal under `key` (any seal it had is replaced). */
export function sealState<T extends object>(
  kind: SealedKind,
  state: T,
  key: SealKey,
): T & { readonly seal: StateSeal } {
  const content = withoutSeal(state);
  return { ...content, seal: sealOfText(kind, canonicalJson(content), key) } as T & { readonly seal: StateSeal };
}

/**
 * Checks a state's seal against the configured keys and throws {@link StateSealError} naming what to fix
 * when it does not check out. With no key configured, an unsealed state passes (the application then vouches
 * for where it kept it) and a sealed one is refused: it cannot be checked.
 */
export function checkStateSeal(
  kind: SealedKind,
  state: { readonly seal?: StateSeal | undefined },
  seal: SealOptions | undefined,
  what: string,
): void {
  const found: unknown = state.seal;
  if (seal === undefined) {
    if (found === undefined) return;
    throw new StateSealError(
      'no_key',
      what,
      `it is sealed (key "${keyIdOf(found)}"), but no key is configured to check it. Pass the key it was sealed ` +
        'under as the `seal` option (`{ key }`, or among `retiredKeys`).',
    );
  }
  const keys = sealKeysOf(seal);
  if (found === undefined) {
    throw new StateSealError(
      'missing',
      what,
      'it carries no seal, but a key is configured: it was written without one (before sealing was turned on, ' +
        'or by a loop without the `seal` option) or its seal was removed. A state whose origin cannot be checked ' +
        'is not resumed: ask the human again from a new run.',
    );
  }
  const key = typeof found === 'object' && found !== null ? keys.get(keyIdOf(found)) : undefined;
  if (key === undefined) {
    throw new StateSealError(
      'unknown_key',
      what,
      `it is sealed under key "${keyIdOf(found)}", which is not among the configured keys. Add that key to ` +
        '`seal.retiredKeys` if it is one of yours.',
    );
  }
  const expected = sealOfText(kind, canonicalJson(withoutSeal(state)), key).mac;
  const mac = (found as { mac?: unknown }).mac;
  if (typeof mac !== 'string' || !sameHex(mac, expected)) {
    throw new StateSealError(
      'mismatch',
      what,
      `its content does not match its seal under key "${key.id}": it was altered after it was sealed. ` +
        'Inspect where it was stored; do not resume it.',
    );
  }
}

function withoutSeal<T extends object>(state: T): Omit<T, 'seal'> {
  if (!('seal' in state)) return state;
  const { seal: _seal, ...content } = state as T & { seal?: unknown };
  return content;
}

function keyIdOf(seal: unknown): string {
  const id = (seal as { keyId?: unknown } | null)?.keyId;
  return typeof id === 'string' ? id.slice(0, 64) : String(id).slice(0, 64);
}

/** Constant-time comparison of two hex MACs. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const crypto = nodeCrypto();
  return crypto.timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
