import type { JsonValue } from '@toolcircuit/core';
import type { Cassette, Interaction, RecordedResponse } from '@toolcircuit/testing';

/** Both SDK bindings: every behaviour test runs on each. */
export const SDKS = ['genai', 'generative-ai'] as const;
export type Sdk = (typeof SDKS)[number];

export const MODEL_ID = 'gemini-2.5-flash';

export const generatePath = (model = MODEL_ID): string => `/v1beta/models/${model}:generateContent`;
export const streamPath = (model = MODEL_ID): string => `/v1beta/models/${model}:streamGenerateContent`;

/** A 200 generateContent answer. */
export function jsonInteraction(json: JsonValue, options: { status?: number; model?: string } = {}): Interaction {
  return {
    request: { method: 'POST', path: generatePath(options.model) },
    response: {
      status: options.status ?? 200,
      headers: { 'content-type': 'application/json' },
      body: { kind: 'json', json },
    },
  };
}

/** A streamGenerateContent answer, one SSE event per chunk. */
export function sseInteraction(chunks: readonly JsonValue[], options: { model?: string } = {}): Interaction {
  return {
    request: { method: 'POST', path: streamPath(options.model) },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: { kind: 'sse', events: chunks.map((chunk) => ({ data: JSON.stringify(chunk) })) },
    },
  };
}

/** A raw response body on either path (a stream cut mid-event, an HTML error page…). */
export function rawInteraction(
  path: string,
  response: { status: number; contentType: string; text: string },
): Interaction {
  const recorded: RecordedResponse = {
    status: response.status,
    headers: { 'content-type': response.contentType },
    body: { kind: 'text', text: response.text },
  };
  return { request: { method: 'POST', path }, response: recorded };
}

/** A Gemini error body `{ error: { code, message, status, details } }`. */
export function errorInteraction(
  status: number,
  error: { message: string; status: string; details?: JsonValue[] },
  path = generatePath(),
): Interaction {
  return {
    request: { method: 'POST', path },
    response: {
      status,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: { kind: 'json', json: { error: { code: status, ...error } } },
    },
  };
}

/** Every cassette written in these tests is synthetic: built from neutral expectations, never recorded. */
export function syntheticCassette(note: string, interactions: readonly Interaction[]): Cassette {
  return {
    format: 'toolcircuit-cassette/1',
    protocol: 'gemini',
    provenance: { kind: 'synthetic', note },
    model: MODEL_ID,
    interactions,
  };
}
