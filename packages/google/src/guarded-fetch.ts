import { invalidResponseError, isEventStream } from '@toolcircuit/core/provider';
import { GOOGLE_PROVIDER } from './google-metadata.js';

const PREVIEW_BYTES = 512;

/**
 * The `fetch` given to `@google/genai` (through its `httpOptions.fetch`): a 2xx answer whose content-type is
 * neither JSON nor an event stream (an HTML page from a proxy or a wrong base URL) becomes an
 * `invalid_response` ProviderError here, because the SDK would otherwise read it as a stream cut mid-event
 * (`Incomplete JSON segment`) or as nothing at all. Errors thrown by `fetch` pass through the SDK unchanged.
 */
export async function guardedFetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (!response.ok) return response;
  const contentType = response.headers.get('content-type');
  if (contentType === null || /json/i.test(contentType) || (isEventStream(contentType) && contentType.trim() !== '')) {
    return response;
  }
  const body = (await response.text().catch(() => '')).slice(0, PREVIEW_BYTES);
  throw invalidResponseError(GOOGLE_PROVIDER, { contentType, body });
}
