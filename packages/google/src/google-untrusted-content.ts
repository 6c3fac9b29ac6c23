import type { JsonObject, UntrustedContent } from '@toolcircuit/core';
import { untrustedContentOf } from '@toolcircuit/core/provider';
import type { HostedPart } from './google-hosted-parts.js';

/** What of a candidate besides its parts brought outside content in: Google Search grounding, URL context. */
export interface GoogleGrounding {
  readonly groundingMetadata?: unknown;
  readonly urlContextMetadata?: unknown;
}

/**
 * The outside content Gemini's hosted tools put into the model's context during a turn, for core's
 * provenance (`ModelTurn.untrustedContent`): each code execution result where it stood among the parts,
 * and Google Search grounding and URL context, which Gemini fetched before writing any part (so at 0: every
 * call of the turn was made after them). `undefined` when there is none.
 */
export function googleUntrustedContent(
  hosted: readonly HostedPart[],
  grounding: GoogleGrounding | undefined,
): UntrustedContent[] | undefined {
  const untrusted: UntrustedContent[] = [];
  for (const [key, value] of [
    ['groundingMetadata', grounding?.groundingMetadata],
    ['urlContextMetadata', grounding?.urlContextMetadata],
  ] as const) {
    if (!isFilled(value)) continue;
    untrusted.push(untrustedContentOf({ at: 0, kind: key, id: key, value, skipKeys: OPAQUE_KEYS }));
  }
  let results = 0;
  for (const { at, part } of hosted) {
    const result = part['codeExecutionResult'];
    if (!isFilled(result)) continue;
    results += 1;
    untrusted.push(
      untrustedContentOf({
        at,
        kind: 'codeExecutionResult',
        id: `codeExecutionResult-${results}`,
        value: result,
        skipKeys: OPAQUE_KEYS,
      }),
    );
  }
  return untrusted.length === 0 ? undefined : untrusted;
}

/** Google's own search widget (HTML and an encoded blob) and enum values: nothing an attacker wrote. */
const OPAQUE_KEYS: readonly string[] = ['renderedContent', 'sdkBlob', 'outcome', 'urlRetrievalStatus'];

function isFilled(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}
