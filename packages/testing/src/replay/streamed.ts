import type { Interaction } from '../cassettes/cassette.js';
import type { ReceivedRequest } from './received-request.js';

/**
 * Whether a request asks for a streamed answer: `"stream": true` in the body (Anthropic, OpenAI Chat and
 * Responses), or Gemini's `:streamGenerateContent` method in the path.
 */
export function asksForStream(request: Pick<ReceivedRequest, 'path' | 'body'>): boolean {
  if (request.path.endsWith(':streamGenerateContent')) return true;
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && body['stream'] === true;
}

/**
 * Whether the recorded answer is a stream: SSE events, text served as `text/event-stream`, or the answer to
 * a recorded request that asked for one. Undefined for an error status: an API answers a streaming request
 * that fails before it starts with a plain JSON error, so either kind of request may get it.
 */
export function recordedAsStream(interaction: Interaction): boolean | undefined {
  const { request, response } = interaction;
  if (response.status < 200 || response.status > 299) return undefined;
  if (response.body.kind === 'sse') return true;
  const type = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (response.body.kind === 'text' && type?.includes('text/event-stream') === true) return true;
  return asksForStream({ path: request.path, body: request.body });
}
