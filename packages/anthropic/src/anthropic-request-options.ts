import type { Anthropic } from '@anthropic-ai/sdk';
import { type AnthropicCreateParams, anthropicRequestBodyText, sendsBodyText } from './anthropic-request-body.js';

/** The SDK's per-request options, as `messages.create` declares them. */
export type AnthropicCallOptions = NonNullable<Parameters<Anthropic['messages']['create']>[1]>;

/**
 * The per-call SDK options: the caller's abort signal (the SDK cancels the request and an open stream), and
 * the body as text made from cached pieces. The SDK sends a string `body` as it is when the options carry a
 * content-type, and `options.body` wins over the body it would make from `params`. The headers merge with
 * the client's default headers and those the SDK derives from `params` as any per-request headers do.
 */
export function anthropicCallOptions(
  client: Anthropic,
  params: AnthropicCreateParams,
  signal: AbortSignal | undefined,
): AnthropicCallOptions | undefined {
  const options: AnthropicCallOptions = {};
  if (signal !== undefined) options.signal = signal;
  if (sendsBodyText(client)) {
    options.body = anthropicRequestBodyText(params);
    options.headers = { 'content-type': 'application/json' };
  }
  return Object.keys(options).length === 0 ? undefined : options;
}
