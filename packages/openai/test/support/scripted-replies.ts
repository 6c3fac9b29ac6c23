// Replies for the recording server (@toolcircuit/testing) in the OpenAI APIs' own framing, prepared as text.
import type { ScriptedReply } from '@toolcircuit/testing';

/** Chat Completions SSE: `data:` lines only, then `[DONE]`. */
export function chatSse(chunks: readonly unknown[]): ScriptedReply {
  const lines = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  return { contentType: 'text/event-stream', text: `${lines.join('')}data: [DONE]\n\n` };
}

/** Responses SSE: each event with an `event:` line equal to its `type`. */
export function typedSse(events: readonly { readonly type: string; readonly [key: string]: unknown }[]): ScriptedReply {
  const lines = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  return { contentType: 'text/event-stream', text: lines.join('') };
}

export function jsonReply(json: unknown): ScriptedReply {
  return { contentType: 'application/json', text: JSON.stringify(json) };
}
