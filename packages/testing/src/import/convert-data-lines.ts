import type { CassetteProtocol, Interaction, SseEvent } from '../cassettes/cassette.js';
import { stringAt } from '../cassettes/json-access.js';
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GEMINI_MODEL_NOTE,
  defaultRequest,
  defaultRequestNote,
} from './default-request.js';
import type { Conversion, SourceFile } from './source-file.js';
import { responseModel } from './wire-parts.js';

// The event that opens one HTTP response's stream: a file holding several was several requests.
const STREAM_START: Partial<Record<CassetteProtocol, string>> = {
  'anthropic-messages': 'message_start',
  'openai-responses': 'response.created',
};

// These APIs name every event after its payload's `type`; the SDKs' parsers rely on it (Anthropic) or see it.
const NAMED_EVENTS: ReadonlySet<CassetteProtocol> = new Set(['anthropic-messages', 'openai-responses']);

/**
 * vercel-ai `*.chunks.txt`: the SSE `data:` payloads of a stream, one JSON per line, framing not stored.
 * Each line becomes one event's data unchanged (trailing spaces included: they were captured).
 */
export function convertDataLines(file: SourceFile): Conversion {
  const lines = file.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const streams: SseEvent[][] = [];
  const start = STREAM_START[file.protocol];
  let model: string | undefined;
  lines.forEach((line, index) => {
    let payload: unknown;
    try {
      payload = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1} is not one JSON payload: ${line.slice(0, 60)}`);
    }
    model ??= responseModel(payload);
    const type = stringAt(payload, 'type');
    const current = streams.at(-1);
    if (current === undefined || (start !== undefined && type === start && current.length > 0)) streams.push([]);
    const event: SseEvent =
      NAMED_EVENTS.has(file.protocol) && type !== undefined ? { event: type, data: line } : { data: line };
    streams.at(-1)?.push(event);
  });
  if (streams.length === 0) throw new Error('no data lines');

  const notes: string[] = [];
  if (file.protocol === 'gemini' && model === undefined) {
    model = DEFAULT_GEMINI_MODEL;
    notes.push(DEFAULT_GEMINI_MODEL_NOTE);
  }
  const request = defaultRequest(file.protocol, true, model ?? '');
  notes.unshift(defaultRequestNote(file.protocol, request));
  notes.push(
    'The source stores only the SSE data payloads, one per line; each line became one event, its data unchanged.',
  );
  if (NAMED_EVENTS.has(file.protocol))
    notes.push(`Each event's event: name was set to its payload's type, as the API sends it.`);
  if (streams.length > 1) {
    notes.push(
      `The file holds ${streams.length} consecutive streams (each opens with ${start}); they became ${streams.length} interactions, one HTTP response each, as the API served them.`,
    );
  }
  notes.push('The source stores no response headers; content-type text/event-stream was added.');
  const interactions: Interaction[] = streams.map((events) => ({
    request,
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'sse', events } },
  }));
  return { interactions, ...(model === undefined ? {} : { model }), notes };
}
