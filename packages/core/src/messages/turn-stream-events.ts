import type { ModelTurn } from './model-turn.js';
import type { StreamEvent } from './stream-events.js';

export interface TurnStreamEventsOptions {
  /**
   * Split text, reasoning and each call's argument text into deltas of at most this many characters, as a
   * streaming provider would. Absent: each text and reasoning part is one delta and calls have no deltas.
   */
  readonly fragmentLength?: number;
}

/**
 * The events a streaming adapter would have produced for a whole turn: deltas in content order (a text's
 * sources right after its text), each call announced and ended (with its parsed input), each `provider` part
 * announced, then `turn-end`. The loop streams a model without `stream`
 * this way, so applications get one kind of stream from every adapter; test models use it to stream scripts.
 */
export function turnStreamEvents(turn: ModelTurn, options: TurnStreamEventsOptions = {}): StreamEvent[] {
  const { fragmentLength } = options;
  const events: StreamEvent[] = [];
  let callIndex = 0;
  for (const part of turn.content) {
    if (part.type === 'text') {
      for (const text of fragments(part.text, fragmentLength)) events.push({ type: 'text-delta', text });
      for (const source of part.sources ?? []) events.push({ type: 'source', source });
    } else if (part.type === 'provider') {
      events.push({ type: 'provider-part', part });
    } else if (part.type === 'reasoning') {
      const pieces = fragments(part.text, fragmentLength);
      // Providers send the signature with the end of the reasoning: keep the metadata on the last delta.
      if (pieces.length === 0 && part.providerMetadata !== undefined) pieces.push('');
      for (const [index, text] of pieces.entries()) {
        const last = index === pieces.length - 1 && part.providerMetadata !== undefined;
        events.push({ type: 'reasoning-delta', text, ...(last ? { providerMetadata: part.providerMetadata } : {}) });
      }
    } else {
      events.push({ type: 'tool-call-start', id: part.id, name: part.name, index: callIndex });
      callIndex += 1;
      if (fragmentLength !== undefined) {
        for (const argumentsDelta of fragments(argumentText(part.rawInput, part.input), fragmentLength)) {
          events.push({ type: 'tool-call-delta', id: part.id, argumentsDelta });
        }
      }
      events.push({
        type: 'tool-call-end',
        id: part.id,
        name: part.name,
        input: part.input,
        ...(part.inputError === undefined ? {} : { inputError: part.inputError }),
      });
    }
  }
  events.push({ type: 'turn-end', turn, incompleteToolCallIds: [] });
  return events;
}

function fragments(text: string, length: number | undefined): string[] {
  if (text === '') return [];
  if (length === undefined || !(length >= 1)) return [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += length) pieces.push(text.slice(start, start + length));
  return pieces;
}

/** The argument text a provider would have streamed (a text tool's input as it is); none when not plain JSON. */
function argumentText(rawInput: string | undefined, input: unknown): string {
  if (rawInput !== undefined) return rawInput;
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}
