import type { ResultPartKind, ToolResultContentPart, ToolResultPart } from '@toolcircuit/core';
import { SYNTHETIC_PNG, SYNTHETIC_WAV } from './synthetic-media.js';

/**
 * One synthetic part per row of the coverage table (text and JSON aside), for checking a converter row by
 * row against its table. The bytes are synthetic; the URLs point at `example.test`, which never resolves.
 */
export const MEDIA_PART_SAMPLES: Readonly<Record<Exclude<ResultPartKind, 'text' | 'json'>, ToolResultContentPart>> =
  Object.freeze({
    'image-data': { type: 'image', mediaType: 'image/jpeg', data: SYNTHETIC_PNG },
    'image-url': { type: 'image', mediaType: 'image/png', url: 'https://example.test/chart.png' },
    'image-gif': { type: 'image', mediaType: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' },
    'pdf-data': { type: 'file', mediaType: 'application/pdf', name: 'a.pdf', data: SYNTHETIC_PNG },
    'pdf-url': { type: 'file', mediaType: 'application/pdf', url: 'https://example.test/a.pdf' },
    'text-file-data': { type: 'file', mediaType: 'text/csv', name: 'rows.csv', data: 'YSxiCjEsMgo=' },
    'text-file-url': { type: 'file', mediaType: 'text/plain', url: 'https://example.test/notes.txt' },
    'audio-data': { type: 'file', mediaType: 'audio/wav', name: 'note.wav', data: SYNTHETIC_WAV },
    'audio-url': { type: 'file', mediaType: 'audio/mpeg', url: 'https://example.test/note.mp3' },
  });

/** A successful result of one call (`call_1`, tool `capture`) holding only `part`. */
export function resultWithPart(part: ToolResultContentPart): ToolResultPart {
  return { type: 'tool_result', callId: 'call_1', name: 'capture', content: [part], isError: false };
}
