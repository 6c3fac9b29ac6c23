import type { JsonValue } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction, SseEvent } from '@toolcircuit/testing';

export const CHAT_PATH = '/v1/chat/completions';
export const RESPONSES_PATH = '/v1/responses';

/** A cassette written by these tests: always marked synthetic, with the reason it exists. */
export function syntheticCassette(protocol: CassetteProtocol, note: string, interactions: Interaction[]): Cassette {
  return {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: { kind: 'synthetic', note: `Synthetic (packages/openai tests): ${note}` },
    interactions,
  };
}

export function jsonInteraction(
  path: string,
  json: JsonValue,
  status = 200,
  headers: Record<string, string> = {},
): Interaction {
  return {
    request: { method: 'POST', path },
    response: { status, headers: { 'content-type': 'application/json', ...headers }, body: { kind: 'json', json } },
  };
}

/** A data-only SSE stream (Chat Completions style: no `event:` lines), optionally ending with `[DONE]`. */
export function sseInteraction(
  path: string,
  payloads: readonly JsonValue[],
  options: { done?: boolean } = {},
): Interaction {
  const events: SseEvent[] = payloads.map((payload) => ({ data: JSON.stringify(payload) }));
  if (options.done ?? true) events.push({ data: '[DONE]' });
  return {
    request: { method: 'POST', path },
    response: { status: 200, headers: {}, body: { kind: 'sse', events } },
  };
}

/** Responses-style SSE: each event has an `event:` line equal to its `type`. */
export function typedSseInteraction(path: string, payloads: readonly { readonly type: string }[]): Interaction {
  const events: SseEvent[] = payloads.map((payload) => ({ event: payload.type, data: JSON.stringify(payload) }));
  return {
    request: { method: 'POST', path },
    response: { status: 200, headers: {}, body: { kind: 'sse', events } },
  };
}

/** A raw body, e.g. an SSE stream that stops in the middle of an event. */
export function textInteraction(path: string, text: string, headers: Record<string, string> = {}): Interaction {
  return {
    request: { method: 'POST', path },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream', ...headers },
      body: { kind: 'text', text },
    },
  };
}

export interface ChatCallFixture {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A Chat Completions response body in the shape recorded from the real API. */
export function chatCompletion(options: {
  readonly content?: string | null;
  readonly toolCalls?: readonly ChatCallFixture[];
  readonly finishReason?: string;
  readonly id?: string;
}): JsonValue {
  const toolCalls = options.toolCalls ?? [];
  const message: { [key: string]: JsonValue } = {
    role: 'assistant',
    content: options.content ?? null,
    refusal: null,
    annotations: [],
  };
  if (toolCalls.length > 0) {
    message['tool_calls'] = toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: options.id ?? 'chatcmpl-synthetic',
    object: 'chat.completion',
    created: 1764579600,
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: options.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: 71, completion_tokens: 46, total_tokens: 117 },
    system_fingerprint: 'fp_synthetic',
  };
}

/** An OpenAI error body `{error: {message, type, param, code}}`. */
export function openAIError(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): JsonValue {
  return { error: { message, type, param, code } };
}

/** A Responses API response body in the shape recorded from the real API (gpt-4o / gpt-5 cassettes). */
export function responsesResponse(options: {
  readonly output: readonly JsonValue[];
  readonly status?: string;
  readonly incompleteReason?: string;
  readonly id?: string;
  readonly model?: string;
}): JsonValue {
  return {
    id: options.id ?? 'resp_synthetic',
    object: 'response',
    created_at: 1764579600,
    status: options.status ?? 'completed',
    error: null,
    incomplete_details: options.incompleteReason === undefined ? null : { reason: options.incompleteReason },
    instructions: null,
    model: options.model ?? 'gpt-4o-2024-08-06',
    output: [...options.output],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: 124,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1926,
      output_tokens_details: { reasoning_tokens: 1792 },
      total_tokens: 2050,
    },
  };
}

export const functionCallItem = (
  id: string,
  callId: string,
  name: string,
  args: string,
  status = 'completed',
): JsonValue => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: args,
  status,
});

export const messageItem = (id: string, text: string): JsonValue => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

export const reasoningItem = (id: string, summary: readonly string[], encrypted = 'gAAAAAB-opaque'): JsonValue => ({
  type: 'reasoning',
  id,
  summary: summary.map((text) => ({ type: 'summary_text', text })),
  encrypted_content: encrypted,
});
