import type { ModelRequest } from '@toolcircuit/core';
import type { OpenAI } from 'openai';
import { requestBodyText } from './openai-shared-request-body.js';

/** The per-call SDK options this adapter sets (a structural subset of the SDK's `RequestOptions`). */
export interface OpenAICallOptions {
  readonly signal?: AbortSignal;
  /** The serialised body: with a content-type the SDK sends a string body verbatim instead of stringifying. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The caller's abort signal goes to the SDK, which cancels the HTTP request (and an open stream); the body
 * goes as text made with cached pieces, so an unchanged history is not serialised again on every step.
 */
export function sdkRequestOptions(request: ModelRequest, client: OpenAI, body: object): OpenAICallOptions {
  const text = requestBodyText(client, body);
  return {
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(text === undefined ? {} : { body: text, headers: { 'content-type': 'application/json' } }),
  };
}
