import type { JsonObject, JsonValue, ProviderMetadata } from '@toolcircuit/core';
import type { GeminiRequestPart, GeminiResponsePart } from './google-api.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';

/** A part of a hosted tool Gemini ran itself, with the number of neutral parts before it in its turn. */
export interface HostedPart {
  readonly at: number;
  readonly part: JsonObject;
}

/**
 * The part of a hosted tool (`executableCode`, `codeExecutionResult` from code execution), whole, with its
 * signature; `undefined` for any other part.
 */
export function hostedPartOf(part: GeminiResponsePart): JsonObject | undefined {
  const kept: JsonObject = {};
  // Decoded JSON from the response, so JSON values.
  if (part.executableCode !== undefined) kept['executableCode'] = part.executableCode as JsonObject;
  else if (part.codeExecutionResult !== undefined) kept['codeExecutionResult'] = part.codeExecutionResult as JsonObject;
  else return undefined;
  if (part.thoughtSignature !== undefined) kept['thoughtSignature'] = part.thoughtSignature;
  return kept;
}

/** The turn's metadata with its hosted parts, which the next request sends back in their places. */
export function withHostedParts(
  metadata: { providerMetadata?: ProviderMetadata },
  hosted: readonly HostedPart[],
): { providerMetadata?: ProviderMetadata } {
  if (hosted.length === 0) return metadata;
  const bag = metadata.providerMetadata?.[GOOGLE_PROVIDER] ?? {};
  const hostedParts: JsonValue[] = hosted.map((entry) => ({ at: entry.at, part: entry.part }));
  return { providerMetadata: { [GOOGLE_PROVIDER]: { ...bag, hostedParts } } };
}

/** The hosted parts an assistant message kept (see `withHostedParts`), read defensively. */
export function hostedPartsOf(metadata: ProviderMetadata | undefined): HostedPart[] {
  const kept = metadata?.[GOOGLE_PROVIDER]?.['hostedParts'];
  if (!Array.isArray(kept)) return [];
  return kept.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
    const { at, part } = entry;
    if (typeof at !== 'number' || typeof part !== 'object' || part === null || Array.isArray(part)) return [];
    return [{ at, part }];
  });
}

/** Pushes copies of the hosted parts that stood before neutral part `index`. */
export function pushHostedParts(hosted: readonly HostedPart[], index: number, parts: GeminiRequestPart[]): void {
  for (const entry of hosted) if (entry.at === index) parts.push({ ...entry.part } as GeminiRequestPart);
}
