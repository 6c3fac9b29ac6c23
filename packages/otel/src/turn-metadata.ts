import type { ModelTurn } from '@toolcircuit/core';

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
