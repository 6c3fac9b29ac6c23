/**
 * States (a paused run, or `{ interrupted }`'s inner state) that a store parsed from text whose SHA-256 is
 * the digest stored beside it. Such a state is exactly what was written, so the runner need not serialise
 * it again to check it: hashing the stored text is the same check, without re-canonicalising the whole
 * conversation on every resume. A state not in here (text in another JSON layout, a store of another
 * kind) is checked the long way, against the canonical JSON of the parsed value.
 */
const matchingTheirDigest = new WeakSet<object>();

/** Records that `state` was parsed from text whose SHA-256 is its stored digest. */
export function markStoredAsDigested(state: object): void {
  matchingTheirDigest.add(state);
}

/** Whether `state` is, unchanged, the value parsed from text that matched its stored digest. */
export function storedAsDigested(state: object): boolean {
  return matchingTheirDigest.has(state);
}
