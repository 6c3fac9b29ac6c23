import type {
  AssistantMessage,
  ConversionCache,
  JsonObject,
  Message,
  ToolMessage,
  UserMessage,
} from '@toolcircuit/core';
import { cachedConversion, recordResultContentChanges, sealForReuse, toolCallsOf } from '@toolcircuit/core/provider';
import { textToolArguments } from '@toolcircuit/schema';
import { convertToGoogleToolResult } from './convert-to-google-tool-result.js';
import type { GeminiRequestContent, GeminiRequestPart } from './google-api.js';
import { hostedPartsOf, pushHostedParts } from './google-hosted-parts.js';
import { GOOGLE_PROVIDER, readGooglePartMetadata } from './google-metadata.js';

export interface GoogleMessagesInput {
  readonly system: string | undefined;
  readonly messages: readonly Message[];
  /** `user` for @google/genai, `function` for the legacy SDK. */
  readonly functionResponseRole: 'user' | 'function';
  /** Neutral tool name → the name declared to Gemini. */
  readonly toProviderName: (name: string) => string;
  /**
   * Identifies what `toProviderName` does: the same key must mean that every name maps the same way (the
   * adapter passes its name map's `key`). Given, a message converted before is reused on this key
   * alone; without it, on the provider names of the message's own calls, which maps every call of the
   * history again on every request.
   */
  readonly namingKey?: string | undefined;
  /**
   * Whether function responses may carry `parts` (images, PDFs): true for @google/genai. Defaults to
   * `functionResponseRole === 'user'`, which is how the two SDKs differ.
   */
  readonly functionResponseParts?: boolean | undefined;
}

export interface GoogleMessages {
  readonly systemInstruction: { parts: { text: string }[] } | undefined;
  readonly contents: GeminiRequestContent[];
}

/**
 * Neutral history → Gemini `contents` + `systemInstruction`.
 *
 * - Assistant turns become `model` contents whose parts carry back, unchanged, every `thoughtSignature`
 *   and thought part this adapter received (Gemini 3 rejects a function call turn without them).
 * - A call's `id` is sent only when Gemini gave it; a synthesised id stays on our side.
 * - A tool message becomes ONE content with one `functionResponse` part per call, in call order, and
 *   nothing else (the legacy SDK refuses to mix them with other parts).
 * - Reasoning from another provider is dropped: Gemini cannot use it and it has no signature; parts this
 *   adapter kept as `provider` parts go back in their places, unchanged (another provider's are left out).
 *
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function convertToGoogleMessages(input: GoogleMessagesInput): GoogleMessages {
  const systemTexts = input.system === undefined || input.system === '' ? [] : [input.system];
  const contents: GeminiRequestContent[] = [];
  let previousAssistant: AssistantMessage | undefined;
  // Besides the message itself, a conversion depends on the provider names it writes: the caller's naming
  // key says which mapping is in use, otherwise the names of the message's own calls / results do. Tagged,
  // so that a caller's key can never equal some message's names.
  const mapping = input.namingKey === undefined ? undefined : `map\u0000${input.namingKey}`;

  for (const message of input.messages) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') systemTexts.push(message.content);
        break;
      case 'user':
        contents.push(...cachedConversion(conversions, message, '', undefined, () => [frozen(userContent(message))]));
        break;
      case 'assistant': {
        previousAssistant = message;
        const key = mapping ?? `names\u0000${callNamesKey(message, input)}`;
        contents.push(
          ...cachedConversion(conversions, message, key, undefined, () => {
            const parts = assistantParts(message, input.toProviderName);
            return parts.length === 0 ? [] : [frozen({ role: 'model', parts })];
          }),
        );
        break;
      }
      case 'tool': {
        // A tool message reads the assistant turn before it (which calls got a provider id), so that turn
        // is part of what the cached conversion is valid for.
        const previous = previousAssistant;
        const key = `${input.functionResponseRole}\u0000${mapping ?? `names\u0000${resultNamesKey(message, input)}`}`;
        const withParts = input.functionResponseParts ?? input.functionResponseRole === 'user';
        contents.push(
          ...cachedConversion(conversions, message, `${key}\u0000${withParts}`, previous, () =>
            toolContents(message, previous, input, withParts),
          ),
        );
        break;
      }
    }
  }

  return {
    systemInstruction: systemTexts.length === 0 ? undefined : { parts: [{ text: systemTexts.join('\n\n') }] },
    contents,
  };
}

const conversions: ConversionCache<readonly GeminiRequestContent[]> = new WeakMap();

// A cached content is shared by every later request (and its hash seeds synthesised ids), so it is frozen
// down to its parts array: nothing may change it after it was hashed. Sealed, so that a request body made
// by core's stringifyRequestBody reuses its JSON text (genai-contents-text.ts).
function frozen(content: GeminiRequestContent): GeminiRequestContent {
  Object.freeze(content.parts);
  return sealForReuse(content);
}

function userContent(message: UserMessage): GeminiRequestContent {
  return {
    role: 'user',
    parts:
      typeof message.content === 'string'
        ? [{ text: message.content }]
        : message.content.map((part) => ({ text: part.text })),
  };
}

// Without a naming key: the provider names a message's conversion writes, mapped again on every request.
function callNamesKey(message: AssistantMessage, input: GoogleMessagesInput): string {
  let key = '';
  for (const part of message.content) if (part.type === 'tool_call') key += `${input.toProviderName(part.name)}\u0000`;
  return key;
}

function resultNamesKey(message: ToolMessage, input: GoogleMessagesInput): string {
  let key = '';
  for (const result of message.content) key += `${input.toProviderName(result.name)}\u0000`;
  return key;
}

function assistantParts(message: AssistantMessage, toProviderName: (name: string) => string): GeminiRequestPart[] {
  const parts: GeminiRequestPart[] = [];
  const hosted = hostedPartsOf(message.providerMetadata);
  for (const [index, part] of message.content.entries()) {
    pushHostedParts(hosted, index, parts);
    if (part.type === 'provider') {
      // A part this adapter could not read goes back where it was, unchanged; another provider's is left out.
      if (part.provider === GOOGLE_PROVIDER) parts.push({ ...part.data } as GeminiRequestPart);
      continue;
    }
    const google = readGooglePartMetadata(part.providerMetadata);
    const signature = google?.thoughtSignature === undefined ? {} : { thoughtSignature: google.thoughtSignature };
    if (part.type === 'text') {
      // Gemini sometimes ends a turn with an empty text part that only carries a signature: keep that one.
      if (part.text !== '' || google?.thoughtSignature !== undefined) parts.push({ text: part.text, ...signature });
    } else if (part.type === 'reasoning') {
      if (google?.thought === true || google?.thoughtSignature !== undefined) {
        parts.push({ text: part.text, thought: true, ...signature });
      }
    } else {
      parts.push({
        functionCall: {
          ...(google?.idSynthesized === false ? { id: part.id } : {}),
          name: toProviderName(part.name),
          // Gemini's args is a Struct: a call whose input could not be decoded goes back as `{}`, never as
          // something the API would reject; a text tool's text in its one parameter, `input`.
          args:
            typeof part.input === 'string' ? textToolArguments(part.input) : isJsonObject(part.input) ? part.input : {},
        },
        ...signature,
      });
    }
  }
  pushHostedParts(hosted, message.content.length, parts);
  return parts;
}

/**
 * The function responses of one tool message in ONE content; what a function response cannot carry with
 * this SDK follows in a `user` content (the legacy `function` role takes nothing else).
 */
function toolContents(
  message: ToolMessage,
  previousAssistant: AssistantMessage | undefined,
  input: GoogleMessagesInput,
  withParts: boolean,
): GeminiRequestContent[] {
  const calls = previousAssistant === undefined ? [] : toolCallsOf(previousAssistant.content);
  const position = (callId: string): number => {
    const index = calls.findIndex((call) => call.id === callId);
    return index < 0 ? calls.length : index;
  };
  // The neutral message is already in call order; sorting again costs nothing and protects the rule.
  const results = [...message.content].sort((a, b) => position(a.callId) - position(b.callId));
  const parts: GeminiRequestPart[] = [];
  const moved: GeminiRequestPart[] = [];
  for (const result of results) {
    const call = calls.find((candidate) => candidate.id === result.callId);
    const providerGaveId = call !== undefined && readGooglePartMetadata(call.providerMetadata)?.idSynthesized === false;
    const converted = convertToGoogleToolResult(result, {
      providerName: input.toProviderName(result.name),
      id: providerGaveId ? result.callId : undefined,
      functionResponseParts: withParts,
    });
    recordResultContentChanges(result, converted.changes);
    parts.push({ functionResponse: converted.functionResponse });
    moved.push(...converted.moved);
  }
  const contents = [frozen({ role: input.functionResponseRole, parts })];
  if (moved.length > 0) contents.push(frozen({ role: 'user', parts: moved }));
  return contents;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
