import { fileURLToPath } from 'node:url';
import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { type Cassette, type Interaction, loadCassette, type SseEvent } from '@toolcircuit/testing';

export const DEMO_CASSETTES = fileURLToPath(new URL('../../cassettes/demo/', import.meta.url));

export function demoCassette(name: string): Cassette {
  return loadCassette(name, { directory: DEMO_CASSETTES });
}

/**
 * The Anthropic demo cassette re-framed as Messages API SSE (message_start, content blocks with text and
 * input_json deltas, message_delta, message_stop), for tests of streamed runs. Synthetic, like its source.
 */
export function anthropicDemoAsSse(): Cassette {
  const source = demoCassette('anthropic-messages');
  return {
    ...source,
    provenance: {
      kind: 'synthetic',
      note: 'Synthetic: the synthetic anthropic demo cassette re-framed as SSE by the CLI tests.',
    },
    interactions: source.interactions.map((interaction): Interaction => {
      const body = interaction.response.body;
      if (body.kind !== 'json') throw new Error('expected JSON bodies in the demo cassette');
      return {
        request: interaction.request,
        response: {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          body: { kind: 'sse', events: toSse(body.json as JsonObject) },
        },
      };
    }),
  };
}

function event(type: string, data: JsonValue): SseEvent {
  return { event: type, data: JSON.stringify(data) };
}

function halves(text: string): [string, string] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function toSse(message: JsonObject): SseEvent[] {
  const usage = message['usage'] as JsonObject;
  const events: SseEvent[] = [
    event('message_start', {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage['input_tokens'] ?? 0, output_tokens: 1 },
      },
    }),
  ];
  (message['content'] as JsonObject[]).forEach((block, index) => {
    if (block['type'] === 'text') {
      events.push(
        event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      );
      for (const part of halves(String(block['text']))) {
        events.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: part },
          }),
        );
      }
    } else {
      events.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block['id'] ?? '', name: block['name'] ?? '', input: {} },
        }),
      );
      for (const part of ['', ...halves(JSON.stringify(block['input']))]) {
        events.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          }),
        );
      }
    }
    events.push(event('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message['stop_reason'] ?? 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage['output_tokens'] ?? 0 },
    }),
    event('message_stop', { type: 'message_stop' }),
  );
  return events;
}
