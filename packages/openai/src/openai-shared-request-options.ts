import type { ModelRequest } from '@toolcircuit/core';

/** The per-call SDK options this adapter sets (a structural subset of the SDK's `RequestOptions`). */
export interface OpenAICallOptions {
  readonly signal?: AbortSignal;
}

/** The caller's abort signal goes to the SDK, which cancels the HTTP request (and an open stream). */
export function sdkRequestOptions(request: ModelRequest): OpenAICallOptions {
  return request.signal === undefined ? {} : { signal: request.signal };
}
