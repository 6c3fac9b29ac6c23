import type { JsonObject, ProviderMetadata } from '@toolcircuit/core';

/** Our key in every provider bag (`providerMetadata.google`, `providerOptions.google`). */
export const GOOGLE_PROVIDER = 'google';

/** What this adapter keeps on a neutral part, to send back unchanged on the next turn. */
export interface GooglePartMetadata {
  /** Opaque; must be echoed on the same part. With parallel calls only the first part has one. */
  readonly thoughtSignature?: string;
  /**
   * On tool calls, always present: `true` when the adapter made the id up (it is then never sent to
   * Gemini as `functionCall.id`), `false` when Gemini gave it (it is then echoed on the call and result).
   */
  readonly idSynthesized?: boolean;
  /** On reasoning: it was a Gemini thought part (so it is ours to send back, signed or not). */
  readonly thought?: true;
}

export function googlePartMetadata(fields: GooglePartMetadata): ProviderMetadata | undefined {
  const bag: JsonObject = {};
  if (fields.thoughtSignature !== undefined) bag['thoughtSignature'] = fields.thoughtSignature;
  if (fields.idSynthesized !== undefined) bag['idSynthesized'] = fields.idSynthesized;
  if (fields.thought === true) bag['thought'] = true;
  return Object.keys(bag).length === 0 ? undefined : { [GOOGLE_PROVIDER]: bag };
}

/** `undefined` when the part did not come from this adapter (another provider's turn, or hand-written). */
export function readGooglePartMetadata(metadata: ProviderMetadata | undefined): GooglePartMetadata | undefined {
  const bag = metadata?.[GOOGLE_PROVIDER];
  if (bag === undefined) return undefined;
  const signature = bag['thoughtSignature'];
  return {
    ...(typeof signature === 'string' ? { thoughtSignature: signature } : {}),
    ...(typeof bag['idSynthesized'] === 'boolean' ? { idSynthesized: bag['idSynthesized'] } : {}),
    ...(bag['thought'] === true ? { thought: true as const } : {}),
  };
}
