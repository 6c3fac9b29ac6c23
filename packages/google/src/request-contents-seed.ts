import type { GeminiRequestContent } from './google-api.js';
import { stableHash } from './stable-hash.js';

// Content objects are cached per history message (see convert-to-google-messages), so each one is
// serialised and hashed once, on the step that added it.
const contentHashes = new WeakMap<GeminiRequestContent, string>();

/**
 * The id seed when Gemini sends no response id: a hash of the per-content hashes of the request, so it
 * still depends on the whole conversation (ids stay distinct across turns and conversations, and the same
 * request always gives the same seed) without serialising the whole history again every step.
 */
export function requestContentsSeed(contents: readonly GeminiRequestContent[]): string {
  let joined = '';
  for (const content of contents) {
    let hash = contentHashes.get(content);
    if (hash === undefined) {
      hash = stableHash(JSON.stringify(content));
      contentHashes.set(content, hash);
    }
    joined += hash;
  }
  return stableHash(joined);
}
