import type { JsonObject } from '../json/json.js';
import type {
  AssistantContentPart,
  AssistantMessage,
  Message,
  ToolMessage,
  ToolResultPart,
} from '../messages/messages.js';
import type { ModelRequest } from '../messages/model.js';
import type { ProviderMetadata } from '../messages/provider-metadata.js';
import { FALLBACK_PROVIDER } from './answering-model.js';
import { wireCallId } from './wire-call-id.js';

/**
 * Gemini's documented placeholder for a function call it did not make (a history moved from another model):
 * Gemini 3 refuses a function call turn without a thought signature.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const GEMINI_FOREIGN_CALL_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Translations of one conversation's messages for each provider of a list: per message object, and the last
 * request's whole list, so that a request which only appends to the last one translates just what it adds
 * (the loop's requests grow by a turn each: looking every message up again made each turn cost the history).
 */
export type TranslatedMessages = Map<string, ProviderTranslations>;

interface ProviderTranslations {
  readonly messages: WeakMap<Message, Message>;
  /**
   * The last request's list as it was then: an array of our own, grown by what each request appends rather
   * than copied whole (the caller may change its own list in place before the next request).
   */
  readonly seen: Message[];
  /** What was sent for `seen`, where it differs from it: our own too, copied only when handed out. */
  sent: Message[] | undefined;
}

/**
 * The request as the model of `provider` may receive it, when the run's history was (partly) written by
 * other providers. The run's own state is never changed: only what is sent. The rules, for every pair:
 *
 * - Reasoning made by another provider is left out (Anthropic thinking and its signature, OpenAI reasoning
 *   items and their encrypted content, Gemini thought parts and signatures): each API accepts only its own,
 *   signed or encrypted for it. Its text is not replayed as text either: it was never the model's answer.
 * - Parts another provider's adapter kept whole (`provider` parts: hosted-tool blocks, unknown items) are left
 *   out, and so is every other provider's entry in a part's or message's `providerMetadata` (server-tool
 *   blocks, citations, item ids, signatures): only the receiving provider's entry stays, and the list's own
 *   mark of who answered (no adapter reads it; stripping it would copy every assistant message of a run that
 *   never fell over, each turn).
 * - Calls and results stay paired: the same ids, except one that some API refuses (see `wireCallId`), which
 *   is rewritten the same way in the call and its result.
 * - To Gemini (`google`): the first call of a turn another provider made carries Gemini's documented
 *   placeholder signature ({@link GEMINI_FOREIGN_CALL_SIGNATURE}), since Gemini 3 refuses a call turn without one.
 * - To Anthropic: extended thinking (`providerOptions.anthropic.thinking`) is left out while the open tool
 *   loop (the turns since the last user message) holds a call turn without Anthropic's signed thinking: the
 *   API wants one thinking setting per tool loop and a thinking block at the head of each of its turns.
 *
 * What the receiving provider cannot see still counts for the run: provenance, taint and pending
 * confirmations are the loop's, not the request's. Returns the same request when nothing had to change.
 */
export function requestForProvider(
  provider: string,
  request: ModelRequest,
  translated: TranslatedMessages,
): ModelRequest {
  let translations = translated.get(provider);
  if (translations === undefined) {
    translations = { messages: new WeakMap(), seen: [], sent: undefined };
    translated.set(provider, translations);
  }
  const { messages: cache, seen } = translations;
  const source = request.messages;
  // Identity checks are cheaper than a lookup per message: a request that extends the last one starts after it.
  if (!extendsList(source, seen)) {
    seen.length = 0;
    translations.sent = undefined;
  }
  let sent = translations.sent;
  for (let index = seen.length; index < source.length; index += 1) {
    const message = source[index] as Message;
    let translation = cache.get(message);
    if (translation === undefined) {
      translation = messageForProvider(provider, message);
      // Only changed ones are kept: a message sent as it is needs no entry to stay the same object.
      if (translation !== message) cache.set(message, translation);
    }
    if (translation !== message) sent ??= seen.slice();
    sent?.push(translation);
    seen.push(message);
  }
  translations.sent = sent;
  const providerOptions = optionsForProvider(provider, request);
  if (sent === undefined && providerOptions === request.providerOptions) return request;
  return {
    ...request,
    // A copy: the list sent is the model's to keep, and ours grows with the next request.
    messages: sent === undefined ? request.messages : sent.slice(),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  };
}

/** Whether `list` starts with every message of `prefix`, the same objects in the same places. */
function extendsList(list: readonly Message[], prefix: readonly Message[]): boolean {
  const length = prefix.length;
  if (length > list.length) return false;
  for (let index = 0; index < length; index += 1) if (list[index] !== prefix[index]) return false;
  return true;
}

function messageForProvider(provider: string, message: Message): Message {
  if (message.role === 'assistant') return assistantForProvider(provider, message);
  if (message.role === 'tool') return toolForProvider(provider, message);
  return message;
}

function assistantForProvider(provider: string, message: AssistantMessage): AssistantMessage {
  const foreignTurn = !message.content.some((part) => part.type !== 'provider' && ownEntry(part, provider));
  let signed = provider !== 'google' || !foreignTurn;
  let changed = false;
  const content: AssistantContentPart[] = [];
  for (const part of message.content) {
    if (part.type === 'provider' && part.provider !== provider) {
      changed = true;
      continue;
    }
    if (part.type === 'reasoning' && !ownEntry(part, provider)) {
      changed = true;
      continue;
    }
    if (part.type === 'provider') {
      content.push(part);
      continue;
    }
    let kept = ownMetadata(part.providerMetadata, provider);
    let sent: AssistantContentPart = part;
    if (part.type === 'tool_call') {
      const id = wireCallId(part.id);
      if (!signed) {
        signed = true;
        kept = { ...kept, google: { ...kept?.['google'], thoughtSignature: GEMINI_FOREIGN_CALL_SIGNATURE } };
      }
      if (id !== part.id) sent = { ...part, id };
    }
    if (kept !== part.providerMetadata) sent = withMetadata(sent, kept);
    if (sent !== part) changed = true;
    content.push(sent);
  }
  const metadata = ownMetadata(message.providerMetadata, provider);
  if (!changed && metadata === message.providerMetadata) return message;
  const { providerMetadata: _dropped, ...rest } = message;
  return Object.freeze({ ...rest, content, ...(metadata === undefined ? {} : { providerMetadata: metadata }) });
}

function toolForProvider(provider: string, message: ToolMessage): ToolMessage {
  let content: ToolResultPart[] | undefined;
  message.content.forEach((result, index) => {
    const callId = wireCallId(result.callId);
    const kept = ownMetadata(result.providerMetadata, provider);
    if (callId === result.callId && kept === result.providerMetadata) {
      content?.push(result);
      return;
    }
    content ??= message.content.slice(0, index);
    content.push(withMetadata({ ...result, callId }, kept));
  });
  return content === undefined ? message : Object.freeze({ ...message, content });
}

function ownEntry(part: { readonly providerMetadata?: ProviderMetadata }, provider: string): boolean {
  return part.providerMetadata?.[provider] !== undefined;
}

/** Only the receiving provider's entry; the same object when there is no other. */
function ownMetadata(metadata: ProviderMetadata | undefined, provider: string): ProviderMetadata | undefined {
  if (metadata === undefined || onlyOwnKeys(metadata, provider)) return metadata;
  const own = metadata[provider];
  const mark = metadata[FALLBACK_PROVIDER];
  if (own === undefined && mark === undefined) return undefined;
  return {
    ...(own === undefined ? {} : { [provider]: own }),
    ...(mark === undefined ? {} : { [FALLBACK_PROVIDER]: mark }),
  };
}

/** Whether the bag holds no entry but the provider's own and the list's mark (no array made to find out). */
function onlyOwnKeys(metadata: ProviderMetadata, provider: string): boolean {
  for (const key in metadata) if (key !== provider && key !== FALLBACK_PROVIDER) return false;
  return true;
}

function withMetadata<T extends { readonly providerMetadata?: ProviderMetadata }>(
  part: T,
  metadata: ProviderMetadata | undefined,
): T {
  const { providerMetadata: _dropped, ...rest } = part;
  return (metadata === undefined ? rest : { ...rest, providerMetadata: metadata }) as T;
}

function optionsForProvider(provider: string, request: ModelRequest): ModelRequest['providerOptions'] {
  const options = request.providerOptions;
  if (provider !== 'anthropic') return options;
  const anthropic = options?.['anthropic'];
  const thinking = anthropic?.['thinking'];
  if (anthropic === undefined || !thinkingOn(thinking) || !openLoopHasUnsignedCallTurn(request.messages)) {
    return options;
  }
  const { thinking: _off, ...rest } = anthropic;
  return { ...options, anthropic: rest as JsonObject };
}

function thinkingOn(thinking: unknown): boolean {
  if (typeof thinking !== 'object' || thinking === null || Array.isArray(thinking)) return false;
  return (thinking as { type?: unknown }).type !== 'disabled';
}

/** Whether a call turn since the last user message lacks Anthropic's signed (or redacted) thinking. */
function openLoopHasUnsignedCallTurn(messages: readonly Message[]): boolean {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'user') return false;
    if (message.role !== 'assistant' || !message.content.some((part) => part.type === 'tool_call')) continue;
    const signed = message.content.some((part) => {
      if (part.type !== 'reasoning') return false;
      const own = part.providerMetadata?.['anthropic'];
      return typeof own?.['signature'] === 'string' || typeof own?.['data'] === 'string';
    });
    if (!signed) return true;
  }
  return false;
}
