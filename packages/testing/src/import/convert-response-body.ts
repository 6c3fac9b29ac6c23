import type { JsonValue } from '@toolcircuit/core';
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_GEMINI_MODEL_NOTE,
  defaultRequest,
  defaultRequestNote,
} from './default-request.js';
import { inferErrorStatus } from './infer-error-status.js';
import type { Conversion, SourceFile } from './source-file.js';
import { responseModel } from './wire-parts.js';

/** A file holding one non-streaming response body and nothing else (vercel-ai `*.json`, Firebase mock data). */
export function convertResponseBody(file: SourceFile): Conversion {
  const body = JSON.parse(file.text) as JsonValue;
  const notes: string[] = [];
  const error = inferErrorStatus(file.protocol, body);
  let model = responseModel(body);
  if (file.protocol === 'gemini') {
    if (model === undefined) {
      model = DEFAULT_GEMINI_MODEL;
      notes.push(DEFAULT_GEMINI_MODEL_NOTE);
    } else {
      notes.push(`The path's model is the body's modelVersion.`);
    }
  }
  const request = defaultRequest(file.protocol, false, model ?? '');
  notes.unshift(defaultRequestNote(file.protocol, request));
  if (error !== undefined) notes.push(error.note);
  notes.push('The source stores no response headers; content-type application/json was added.');
  return {
    interactions: [
      {
        request,
        response: {
          status: error?.status ?? 200,
          headers: { 'content-type': 'application/json' },
          body: { kind: 'json', json: body },
        },
      },
    ],
    ...(model === undefined ? {} : { model }),
    notes,
  };
}
