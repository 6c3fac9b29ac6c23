import type { CassetteProtocol } from '../cassette.js';
import { tryParseJson } from '../json-access.js';
import { parseSse } from '../parse-sse.js';
import { DEFAULT_GEMINI_MODEL, defaultRequest, defaultRequestNote } from './default-request.js';
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
    notes.push(
      `The source names no model; the path uses ${DEFAULT_GEMINI_MODEL}, the model of the @google/genai README examples.`,
    );
  }
  const request = defaultRequest(file.protocol, true, model ?? '');
  const contentType = SSE_CONTENT_TYPE[file.protocol];
  notes.unshift(defaultRequestNote(file.protocol, request));
  notes.push(
    `The body is the file's text, byte-exact. The source stores no headers; content-type ${contentType} was added.`,
  );
  return {
    interactions: [
      {
        request,
        response: { status: 200, headers: { 'content-type': contentType }, body: { kind: 'text', text: file.text } },
      },
    ],
    ...(model === undefined ? {} : { model }),
    notes,
  };
}
