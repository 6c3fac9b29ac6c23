import type { JsonObject, ProviderPart } from '@toolcircuit/core';
import type { GeminiResponsePart } from './google-api.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';

/** The fields of a part this adapter reads; a part with none of its content fields is not understood. */
const READ_FIELDS: ReadonlySet<string> = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'executableCode',
  'codeExecutionResult',
]);

/**
 * A part whose content this adapter does not read (an image or file the model made, a part of a newer kind) as
 * a `provider` part, kept whole (with its signature) to go back in its place; `undefined` for a part with
 * text, a call or a code execution part, or nothing at all.
 */
export function unknownPartOf(part: GeminiResponsePart): ProviderPart | undefined {
  if (part.text !== undefined || part.functionCall !== undefined) return undefined;
  const fields = Object.keys(part).filter(
    (key) => !READ_FIELDS.has(key) && part[key] !== undefined && part[key] !== null,
  );
  const [kind] = fields;
  if (kind === undefined) return undefined;
  return { type: 'provider', provider: GOOGLE_PROVIDER, kind, data: { ...(part as JsonObject) } };
}

/**
 * A request to act among a turn's unknown parts that nothing answers: a `…Call` part (only `functionCall` is a
 * client's to answer) without its `…Response` or `…Result` in the same turn, which would mean the provider ran
 * it. Its kind, or `undefined`.
 */
export function unansweredCallIn(parts: readonly ProviderPart[]): string | undefined {
  const kinds = new Set(parts.map((part) => part.kind));
  for (const kind of kinds) {
    if (!kind.endsWith('Call')) continue;
    const stem = kind.slice(0, -'Call'.length);
    if (!kinds.has(`${stem}Response`) && !kinds.has(`${stem}Result`)) return kind;
  }
  return undefined;
}
