import type { ModelTurn } from '@toolcircuit/core';
import type { TraceSource } from './trace-record.js';

/** The sources of a turn's text parts, in order, as a trace keeps them (the provider's own data left out). */
export function traceSourcesOf(turn: ModelTurn): TraceSource[] {
  const sources: TraceSource[] = [];
  for (const part of turn.content) {
    if (part.type !== 'text') continue;
    for (const { sourceType, url, title, fileId, filename, citedText } of part.sources ?? []) {
      sources.push({
        sourceType,
        ...(url === undefined ? {} : { url }),
        ...(title === undefined ? {} : { title }),
        ...(fileId === undefined ? {} : { fileId }),
        ...(filename === undefined ? {} : { filename }),
        ...(citedText === undefined ? {} : { citedText }),
      });
    }
  }
  return sources;
}

/** The response id an adapter keeps in the turn's provider metadata (`id`, or `responseId`). */
export function responseIdOf(turn: ModelTurn): string | undefined {
  return metadataString(turn, 'responseId', 'id');
}

/** The model name the provider answered with (`model`, or Gemini's `modelVersion`). */
export function responseModelOf(turn: ModelTurn): string | undefined {
  return metadataString(turn, 'model', 'modelVersion');
}

/** The first string under one of `keys` in any provider's bag of the turn's metadata. */
function metadataString(turn: ModelTurn, ...keys: readonly string[]): string | undefined {
  for (const bag of Object.values(turn.providerMetadata ?? {})) {
    if (bag === null || typeof bag !== 'object' || Array.isArray(bag)) continue;
    for (const key of keys) {
      const value = (bag as Record<string, unknown>)[key];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}
