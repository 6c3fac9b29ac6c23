import type { Anthropic } from '@anthropic-ai/sdk';
import { CONTEXT_MANAGEMENT_BETA } from './anthropic-context-editing.js';
import { type AnthropicCreateParams, anthropicRequestBodyText, sendsBodyText } from './anthropic-request-body.js';

/** The SDK's per-request options, as `messages.create` declares them. */
export type AnthropicCallOptions = NonNullable<Parameters<Anthropic['messages']['create']>[1]>;

/**
 * The per-call SDK options: the caller's abort signal (the SDK cancels the request and an open stream), and
 * the body as text made from cached pieces. The SDK sends a string `body` as it is when the options carry a
 * content-type, and `options.body` wins over the body it would make from `params`. The headers merge with
 * the client's default headers and those the SDK derives from `params` as any per-request headers do; a body
 * with `context_management` carries its beta header (which, as with the SDK's own `betas`, stands in for an
 * `anthropic-beta` default header of the client).
 */
export function anthropicCallOptions(
  client: Anthropic,
  params: AnthropicCreateParams,
  signal: AbortSignal | undefined,
): AnthropicCallOptions | undefined {
  const options: AnthropicCallOptions = {};
  if (signal !== undefined) options.signal = signal;
  const headers: Record<string, string> = {};
  if (params.context_management != null) headers['anthropic-beta'] = CONTEXT_MANAGEMENT_BETA;
  if (sendsBodyText(client)) {
    options.body = anthropicRequestBodyText(params);
    headers['content-type'] = 'application/json';
  }
  if (Object.keys(headers).length > 0) options.headers = headers;
  return Object.keys(options).length === 0 ? undefined : options;
}
