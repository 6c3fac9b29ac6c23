import { stableHash } from './stable-hash.js';

/**
 * Gemini usually sends function calls without an `id`, but the circuit pairs every result to its call by
 * id. The id we make up must be stable (the same response always gives the same ids, so a replayed or
 * resumed run matches its journal) and distinct within the turn (two calls to the same function with the
 * same arguments differ by their ordinal).
 *
 * `seed` is the response id when Gemini sent one (unique per response), otherwise a hash of the request
 * contents, see requestContentsSeed (they grow every turn, so ids do not repeat across turns of one conversation).
 * Generate and stream compute the same seed, so both give the same ids for the same exchange.
 */
export function synthesizeToolCallId(seed: string, ordinal: number, name: string, args: unknown): string {
  return `gemini-${stableHash(`${seed}\u0000${ordinal}\u0000${name}\u0000${JSON.stringify(args) ?? ''}`)}-${ordinal}`;
}
