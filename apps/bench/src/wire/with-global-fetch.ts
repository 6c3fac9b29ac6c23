import type { FetchFunction } from './instant-fetch.js';

/**
 * Runs `work` with `fetch` as the global fetch, and puts the original back afterwards, even on failure.
 *
 * Only for the Google adapter: `createGoogleModel` takes no `fetch` option, and the bench cannot build the
 * `GoogleGenAI` client itself (with `httpOptions.fetch`) to pass as `client`, since `@google/genai` is not one of
 * its dependencies. `@google/genai` 2.x calls the global `fetch` at request time when no fetch is configured
 * (`ApiClient.apiCall`), so this reaches the same SDK code path. Nothing else in this process may fetch meanwhile.
 */
export async function withGlobalFetch<T>(fetch: FetchFunction, work: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = fetch as typeof globalThis.fetch;
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}
