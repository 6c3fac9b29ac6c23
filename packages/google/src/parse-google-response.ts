import type { AssistantContentPart, JsonObject, ModelTurn, ProviderMetadata, ProviderPart } from '@toolcircuit/core';
import { unsupportedCallError } from '@toolcircuit/core/provider';
import type { GeminiResponse, GeminiResponsePart } from './google-api.js';
import { type HostedPart, hostedPartOf, withHostedParts } from './google-hosted-parts.js';
import { GOOGLE_PROVIDER, googlePartMetadata } from './google-metadata.js';
import { sourceMetadataOf, withGoogleSources, withSourceMetadata } from './google-sources.js';
import { unansweredCallIn, unknownPartOf } from './google-unknown-parts.js';
import { googleUntrustedContent } from './google-untrusted-content.js';
import { mapGoogleStopReason } from './map-google-stop-reason.js';
import { mapGoogleUsage } from './map-google-usage.js';
import { parseGoogleFunctionCall } from './parse-google-function-call.js';

export interface ParseGoogleResponseOptions {
  /** Seed for synthesised call ids when the response has no `responseId` (a hash of the request). */
  readonly requestSeed: string;
  readonly fromProviderName: (name: string) => string;
  /** Puts decoded arguments back in the shape of the tool's original schema (by neutral name). */
  readonly restoreInput: (name: string, input: unknown) => unknown;
}

/**
 * A generateContent response → the neutral turn. Only the first candidate is read (we never ask for
 * more). Thought parts become reasoning, every `thoughtSignature` is kept on the part it came with, code
 * execution's parts are kept whole in the turn's metadata (sent back in their places), and a part of a kind
 * this adapter does not read (an image the model made…) is a `provider` part in its place, sent back there.
 * Grounding, URL context and citation metadata become the text's sources and stay whole in the turn's
 * metadata. An unknown `…Call` part nobody answers makes the turn an `unsupported_call` error.
 */
export function parseGoogleResponse(response: GeminiResponse, options: ParseGoogleResponseOptions): ModelTurn {
  const candidate = response.candidates?.[0];
  const idSeed = response.responseId ?? options.requestSeed;
  const content: AssistantContentPart[] = [];
  let ordinal = 0;
  const hosted: HostedPart[] = [];
  const unknown: ProviderPart[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    const hostedPart = hostedPartOf(part);
    const unknownPart = hostedPart === undefined ? unknownPartOf(part) : undefined;
    if (hostedPart !== undefined) {
      hosted.push({ at: content.length, part: hostedPart });
    } else if (unknownPart !== undefined) {
      unknown.push(unknownPart);
      content.push(unknownPart);
    } else if (part.functionCall !== undefined) {
      content.push(
        parseGoogleFunctionCall(part.functionCall, {
          idSeed,
          ordinal,
          thoughtSignature: part.thoughtSignature,
          fromProviderName: options.fromProviderName,
          restoreInput: options.restoreInput,
        }),
      );
      ordinal += 1;
    } else {
      const text = parseGoogleTextPart(part);
      if (text !== undefined) content.push(text);
    }
  }
  const sources = sourceMetadataOf(candidate);
  // Search grounding, URL context and code output: outside content the turn's calls were made after.
  const untrusted = googleUntrustedContent(hosted, sources);
  const turn: ModelTurn = {
    content: withGoogleSources(content, sources),
    stopReason: mapGoogleStopReason({
      finishReason: candidate?.finishReason,
      blockReason: response.promptFeedback?.blockReason,
      hasToolCalls: ordinal > 0,
    }),
    usage: mapGoogleUsage(response.usageMetadata),
    ...withSourceMetadata(withHostedParts(turnMetadata(response), hosted), sources),
    ...(untrusted === undefined ? {} : { untrustedContent: untrusted }),
  };
  const kind = unansweredCallIn(unknown);
  if (kind !== undefined) throw unsupportedCallError(GOOGLE_PROVIDER, kind, turn);
  return turn;
}

/**
 * A text or thought part; `undefined` for parts without text, unless they carry a signature (then kept as
 * empty text, so the signature goes back where it came from).
 */
export function parseGoogleTextPart(part: GeminiResponsePart): AssistantContentPart | undefined {
  const text = part.text ?? '';
  if (text === '' && part.thoughtSignature === undefined) return undefined;
  const metadata = googlePartMetadata({
    ...(part.thought === true ? { thought: true as const } : {}),
    ...(part.thoughtSignature === undefined ? {} : { thoughtSignature: part.thoughtSignature }),
  });
  return {
    type: part.thought === true ? 'reasoning' : 'text',
    text,
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
}

/**
 * Response-level data kept for audits: response id and model version. (Not `finishMessage`:
 * `@google/genai` drops it while parsing, and both bindings must give the same turn.)
 */
export function turnMetadata(response: Pick<GeminiResponse, 'responseId' | 'modelVersion'>): {
  providerMetadata?: ProviderMetadata;
} {
  const bag: JsonObject = {};
  if (response.responseId !== undefined) bag['responseId'] = response.responseId;
  if (response.modelVersion !== undefined) bag['modelVersion'] = response.modelVersion;
  return Object.keys(bag).length === 0 ? {} : { providerMetadata: { [GOOGLE_PROVIDER]: bag } };
}
