import type { CassetteProtocol } from '../cassettes/cassette.js';
import { tryParseJson } from '../cassettes/json-access.js';
import { parseSse } from '../http/parse-sse.js';
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GEMINI_MODEL_NOTE,
  defaultRequest,
  defaultRequestNote,
} from './default-request.js';
import type { Conversion, SourceFile } from './source-file.js';
import { responseModel } from './wire-parts.js';

// What each API labels its streams with (seen in recorded headers of the same APIs in this folder).
const SSE_CONTENT_TYPE: Readonly<Record<CassetteProtocol, string>> = {
  'anthropic-messages': 'text/event-stream; charset=utf-8',
  'openai-chat': 'text/event-stream; charset=utf-8',
  'openai-responses': 'text/event-stream; charset=utf-8',
  gemini: 'text/event-stream',
};

/** A raw SSE body with its exact framing (anthropic-sdk-python `.txt`, openai-python `.sse.txt`, Firebase `.txt`). */
export function convertRawSse(file: SourceFile): Conversion {
  const events = parseSse(file.text);
  if (events.length === 0) throw new Error('no SSE events found');
  let model: string | undefined;
  for (const event of events) {
    model = responseModel(tryParseJson(event.data));
    if (model !== undefined) break;
  }
  const notes: string[] = [];
  if (file.protocol === 'gemini' && model === undefined) {
    model = DEFAULT_GEMINI_MODEL;
    notes.push(DEFAULT_GEMINI_MODEL_NOTE);
  }
  const request = defaultRequest(file.protocol, true, model ?? '');
  const contentType = SSE_CONTENT_TYPE[file.protocol];
  notes.unshift(defaultRequestNote(file.protocol, request));
  const text = terminated(file.text);
  if (text === file.text) {
    notes.push("The body is the file's text, byte-exact.");
  } else {
    notes.push(
      "The body is the file's text, byte-exact, plus the blank line that ends the last event: the file stops right after that event's data line, and a spec-following SSE parser (the TypeScript SDKs') drops an event no blank line ends, which the API never leaves open.",
    );
  }
  notes.push(`The source stores no headers; content-type ${contentType} was added.`);
  return {
    interactions: [
      {
        request,
        response: { status: 200, headers: { 'content-type': contentType }, body: { kind: 'text', text } },
      },
    ],
    ...(model === undefined ? {} : { model }),
    notes,
  };
}

/** The text with its last event closed by a blank line, in the line-end style the file already uses. */
function terminated(text: string): string {
  if (/(\r\n\r\n|\n\n|\r\r)$/.test(text)) return text;
  const lineEnd = text.includes('\r\n') ? '\r\n' : text.includes('\n') ? '\n' : '\r';
  return text.endsWith(lineEnd) ? `${text}${lineEnd}` : `${text}${lineEnd}${lineEnd}`;
}
