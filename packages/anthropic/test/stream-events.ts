// Builders for Messages API stream events, shaped like the recorded SSE in fixtures/recorded/anthropic.
import type { JsonObject, JsonValue, Model, ModelRequest, StreamEvent } from '@toolcircuit/core';
import { MODEL_ID } from './replay.js';

export function messageStart(id = 'msg_stream'): JsonValue {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: MODEL_ID,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

export const ping: JsonValue = { type: 'ping' };

export function textStart(index: number): JsonValue {
  return { type: 'content_block_start', index, content_block: { type: 'text', text: '' } };
}

export function textDelta(index: number, text: string): JsonValue {
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
}

export function toolStart(index: number, id: string, name: string): JsonValue {
  return { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } };
}

export function jsonDelta(index: number, partial: string): JsonValue {
  return { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } };
}

export function blockStop(index: number): JsonValue {
  return { type: 'content_block_stop', index };
}

export function messageDelta(stopReason: string, outputTokens = 5): JsonValue {
  return {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  };
}

export const messageStop: JsonValue = { type: 'message_stop' };

/** The SSE text the API would send for these events, to build cut (`text`) bodies from. */
export function sseText(events: readonly JsonValue[]): string {
  return events
    .map((data) => {
      const type = typeof data === 'object' && data !== null && !Array.isArray(data) ? data['type'] : undefined;
      return `event: ${String(type)}\ndata: ${JSON.stringify(data)}\n\n`;
    })
    .join('');
}

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function lastEvent(events: readonly StreamEvent[]): StreamEvent | undefined {
  return events.at(-1);
}

/** The model's stream; the Anthropic adapter always has one. */
export function streamFrom(model: Model, request: ModelRequest): AsyncIterable<StreamEvent> {
  if (model.stream === undefined) throw new Error('the Anthropic model must stream');
  return model.stream(request);
}

/**
 * A Messages API response as the SSE its stream would send: each text block and tool input in deltas of at
 * most `pieceLength` characters (whole when absent), then the stop reason.
 */
export function messageSse(response: JsonObject, pieceLength?: number): string {
  const pieces = (text: string): string[] =>
    pieceLength === undefined ? [text] : (text.match(new RegExp(`[\\s\\S]{1,${pieceLength}}`, 'g')) ?? []);
  const events: JsonValue[] = [messageStart()];
  (response['content'] as JsonObject[]).forEach((block, index) => {
    if (block['type'] === 'text') {
      events.push(textStart(index));
      for (const piece of pieces(String(block['text']))) events.push(textDelta(index, piece));
    } else {
      events.push(toolStart(index, String(block['id']), String(block['name'])));
      for (const piece of pieces(JSON.stringify(block['input']))) events.push(jsonDelta(index, piece));
    }
    events.push(blockStop(index));
  });
  events.push(messageDelta(String(response['stop_reason'])), messageStop);
  return sseText(events);
}
