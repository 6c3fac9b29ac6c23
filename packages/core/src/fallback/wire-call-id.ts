/**
 * Ids every tool-calling API takes: Anthropic allows `[A-Za-z0-9_-]` only, OpenAI Chat Completions at most 40
 * characters. The ids the adapters and the loop make fit; an id another provider made may not.
 */
const PORTABLE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * The id a call and its result carry in a request to another provider: the same id when it fits every API,
 * else `call_` and a hash of it (the same for the call and its result, and on every request, so they stay
 * paired and the history stays the same from one turn to the next). The run itself keeps the original.
 */
export function wireCallId(id: string): string {
  return PORTABLE_ID.test(id) ? id : `call_${hash64(id)}`;
}

/** Two FNV-1a passes with different seeds: 16 hex digits, deterministic and not cryptographic. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
