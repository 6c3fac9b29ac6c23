import { invalidResponseError } from '@toolcircuit/core/provider';

/** The part of the SDK's `APIPromise` used here: the raw `Response`, then the parsed body. */
interface SdkPromise<T> extends PromiseLike<T> {
  asResponse(): Promise<Response>;
}

/**
 * The parsed body of a non-streamed call, or an `invalid_response` ProviderError when the 2xx answer is not
 * the API's JSON (an HTML page from a proxy, an empty body without a content-type): the SDK parses JSON only
 * when the content-type says so, and would hand anything else over as a string (Chat), or fail in its own
 * post-processing with a TypeError (Responses). The raw `Response` is looked at first, without reading its
 * body, so the SDK still parses it as usual. A body labelled JSON that does not parse is the SDK's
 * SyntaxError, which `mapOpenAIError` reports the same way.
 */
export async function parsedAnswer<T>(pending: SdkPromise<T>, provider: string, field: string): Promise<T> {
  const raw = await pending.asResponse();
  const contentType = raw.headers.get('content-type');
  if (contentType === null || !/json/i.test(contentType)) {
    throw invalidResponseError(provider, { contentType, body: await raw.text().catch(() => undefined) });
  }
  const data = await pending;
  if (!hasArrayField(data, field)) throw invalidResponseError(provider, { contentType, body: data });
  return data;
}

function hasArrayField(value: unknown, field: string): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)[field]);
}
