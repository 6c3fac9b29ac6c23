import { createAnthropicModel } from '@toolcircuit/anthropic';
import type { Model } from '@toolcircuit/core';
import { createGoogleModel } from '@toolcircuit/google';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '@toolcircuit/openai';
import type { FetchFunction } from './instant-fetch.js';
import type { WireProtocol } from './instant-responses.js';
import { withGlobalFetch } from './with-global-fetch.js';

/**
 * How an adapter's request body is made, a fact of the adapter's code (not read off the timings):
 * - `text-reused`: the adapter hands its SDK the body as text from core's `stringifyRequestBody`, reusing the
 *   JSON text of every converted message and of the tool list, and the joined text of the unchanged leading
 *   history (anthropic: `anthropicCallOptions`; openai: `sdkRequestOptions`). A step serialises its new messages.
 * - `text-completed`: the SDK takes no serialised body, so it serialises the request with a placeholder for the
 *   history, and the adapter's per-request fetch puts the history's reused text in its place (google:
 *   `genai-contents-text.ts`). A step serialises its new messages, and the SDK the rest of the request.
 * - `sdk-serialises`: the SDK converts and serialises the whole request on every call (google with a `client`
 *   of the application's); the adapter reuses its converted messages.
 */
export type BodyHandling = 'text-reused' | 'text-completed' | 'sdk-serialises';

export const BODY_HANDLING: Readonly<Record<BodyHandling, string>> = {
  'text-reused':
    'the adapter hands the SDK the body as text, reusing the cached JSON text of the unchanged history and tools: a step serialises only its new messages',
  'text-completed':
    "the SDK serialises the request with a placeholder for the history, and the adapter's fetch puts the history's reused text in its place: a step serialises only its new messages",
  'sdk-serialises':
    'the SDK converts and serialises the whole request on every call (it takes no serialised body); the adapter only reuses its converted messages',
};

export interface WireAdapter {
  readonly label: string;
  readonly protocol: WireProtocol;
  readonly body: BodyHandling;
  /** The model over its SDK, sending to a server at `url` (the SDK's default fetch). */
  overServer(url: string): Model;
  /** Runs `work` with the model over its SDK, whose requests `fetch` answers. */
  withFetch<T>(fetch: FetchFunction, work: (model: Model) => Promise<T>): Promise<T>;
}

// Never resolves (RFC 6761): a request that escaped the instant fetch fails at once instead of going anywhere.
const NOWHERE = 'http://instant.invalid';

export const WIRE_ADAPTERS: readonly WireAdapter[] = [
  {
    label: 'anthropic (@anthropic-ai/sdk)',
    protocol: 'anthropic',
    body: 'text-reused',
    overServer: (url) => createAnthropicModel({ model: 'claude-bench', apiKey: 'bench', baseURL: url, maxRetries: 0 }),
    withFetch: (fetch, work) =>
      work(createAnthropicModel({ model: 'claude-bench', apiKey: 'bench', baseURL: NOWHERE, maxRetries: 0, fetch })),
  },
  {
    label: 'openai chat (openai)',
    protocol: 'openai-chat',
    body: 'text-reused',
    overServer: (url) =>
      createOpenAIChatModel({ model: 'gpt-bench', apiKey: 'bench', baseURL: `${url}/v1`, maxRetries: 0 }),
    withFetch: (fetch, work) =>
      work(
        createOpenAIChatModel({ model: 'gpt-bench', apiKey: 'bench', baseURL: `${NOWHERE}/v1`, maxRetries: 0, fetch }),
      ),
  },
  {
    label: 'openai responses (openai)',
    protocol: 'openai-responses',
    body: 'text-reused',
    overServer: (url) =>
      createOpenAIResponsesModel({ model: 'gpt-bench', apiKey: 'bench', baseURL: `${url}/v1`, maxRetries: 0 }),
    withFetch: (fetch, work) =>
      work(
        createOpenAIResponsesModel({
          model: 'gpt-bench',
          apiKey: 'bench',
          baseURL: `${NOWHERE}/v1`,
          maxRetries: 0,
          fetch,
        }),
      ),
  },
  {
    label: 'google (@google/genai)',
    protocol: 'google',
    body: 'text-completed',
    overServer: (url) => createGoogleModel({ model: 'gemini-bench', apiKey: 'bench', baseURL: url }),
    // createGoogleModel has no `fetch` option: see withGlobalFetch.
    withFetch: (fetch, work) =>
      withGlobalFetch(fetch, () =>
        work(createGoogleModel({ model: 'gemini-bench', apiKey: 'bench', baseURL: NOWHERE })),
      ),
  },
];
