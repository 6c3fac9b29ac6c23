/**
 * For adapters: whether a successful streamed answer's `content-type` allows an event stream. A missing
 * header is allowed (some gateways drop it; the end-of-turn rule still catches an empty body); anything else
 * (an HTML page, a JSON document) is not the API's stream.
 */
export function isEventStream(contentType: string | null | undefined): boolean {
  if (contentType === null || contentType === undefined || contentType.trim() === '') return true;
  return /^\s*text\/event-stream\b/i.test(contentType);
}
