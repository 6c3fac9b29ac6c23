import type { Cassette } from '../cassettes/cassette.js';
import { isRecord } from '../cassettes/json-access.js';
import { validateCassette } from '../cassettes/validate-cassette.js';
import { convertDataLines } from './convert-data-lines.js';
import { convertExchangeList } from './convert-exchange-list.js';
import { convertHarnessCalls } from './convert-harness-calls.js';
import { convertNockRecording } from './convert-nock-recording.js';
import { convertRawSse } from './convert-raw-sse.js';
import { convertResponseBody } from './convert-response-body.js';
import { convertVcrCassette } from './convert-vcr-cassette.js';
import type { Conversion, SourceFile } from './source-file.js';

/** Marks the gunzipped-body copies that a VCR cassette of the same name reads; they are no cassette alone. */
export const DERIVED_SUFFIX = '.DERIVED-decoded-bodies.json';

/** The cassette name for a recorded file: same folder and basename, last extension dropped. */
export function cassetteNameOf(dest: string): string {
  return dest.replace(/\.(json|yaml|txt)$/, '');
}

/** Picks the converter from the file name, and for JSON from its shape (the formats share `.json`). */
export function converterFor(file: SourceFile): (file: SourceFile) => Conversion {
  if (file.name.endsWith('.yaml')) return convertVcrCassette;
  if (file.name.endsWith('.chunks.txt')) return convertDataLines;
  if (file.name.endsWith('.txt')) return convertRawSse;
  if (!file.name.endsWith('.json')) throw new Error(`${file.entry.dest}: no converter for this file type`);
  const parsed: unknown = JSON.parse(file.text);
  if (Array.isArray(parsed)) {
    const first: unknown = parsed[0];
    if (isRecord(first) && isRecord(first['response']) && 'status_code' in first['response'])
      return convertExchangeList;
    if (isRecord(first) && 'scope' in first && 'path' in first) return convertNockRecording;
    throw new Error(`${file.entry.dest}: a JSON list in no known recording format`);
  }
  if (isRecord(parsed) && Array.isArray(parsed['calls'])) return convertHarnessCalls;
  return convertResponseBody;
}

/** Converts one recorded file and attaches its provenance; the result is validated before it is returned. */
export function convertSourceFile(file: SourceFile): { cassette: Cassette; companions: readonly SourceFile[] } {
  let conversion: Conversion;
  try {
    conversion = converterFor(file)(file);
  } catch (error) {
    throw new Error(`${file.entry.dest}: ${(error as Error).message}`, { cause: error });
  }
  const { entry } = file;
  const companions = conversion.companions ?? [];
  const note = [
    `Source: ${entry.desc}`,
    ...(entry.index_only
      ? ['The text was taken from a code-search index at this commit, which the fetched snapshot lacks (index-only).']
      : []),
    ...conversion.notes,
    ...originNotes(file),
  ].join(' ');
  const cassette: Cassette = {
    format: 'toolcircuit-cassette/1',
    protocol: file.protocol,
    ...(conversion.model === undefined ? {} : { model: conversion.model }),
    provenance: {
      kind: 'imported',
      sourceFile: entry.dest,
      repo: entry.repo,
      path: entry.path,
      commit: entry.commit,
      license: entry.license,
      sha256: file.sha256,
      note,
      ...(companions.length === 0
        ? {}
        : {
            companionFiles: companions.map((companion) => ({
              sourceFile: companion.entry.dest,
              sha256: companion.sha256,
            })),
          }),
    },
    interactions: conversion.interactions,
  };
  return { cassette: validateCassette(cassette, cassetteNameOf(entry.dest)), companions };
}

// Bodies captured from another endpoint than the one our adapters call are served under our path anyway.
function originNotes(file: SourceFile): string[] {
  const { path, desc } = file.entry;
  if (file.protocol === 'gemini' && (path.includes('/vertexai/') || /\bVertex\b/.test(desc))) {
    return ['The body is a Vertex AI response; it is served under the Gemini Developer API path our adapters call.'];
  }
  if (/\bAzure\b/.test(desc) || path.startsWith('packages/azure/')) {
    return ['Captured from Azure OpenAI; it is served under the api.openai.com path our adapters call.'];
  }
  return [];
}
