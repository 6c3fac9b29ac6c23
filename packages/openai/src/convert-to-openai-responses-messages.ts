import type {
  AssistantMessage,
  ConversionCache,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  TextPart,
  UserMessage,
} from '@toolcircuit/core';
import { cachedConversion, recordResultContentChanges } from '@toolcircuit/core/provider';
import type {
  EasyInputMessage,
  ResponseInputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesToolResult } from './convert-to-openai-tool-result.js';
import { sealedElements } from './openai-shared-request-body.js';
import { argumentsForHistory } from './openai-shared-tool-calls.js';

export interface ResponsesConversionOptions {
  readonly provider: string;
  readonly toProviderName: (name: string) => string;
  /** Identifies what `toProviderName` does to any name: the assistant messages' conversions key on it. */
  readonly namingKey: string;
}

export interface ConvertedResponsesInput {
  readonly instructions?: string;
  readonly input: ResponseInputItem[];
}

/**
 * Neutral history → Responses `instructions` + `input` items, keeping the order the model emitted things in.
 * Reasoning items are re-sent whole from `providerMetadata` (with `encrypted_content`, which `store: false`
 * needs), each output message keeps its item id, and each call goes back as a `function_call` item (with
 * its `fc_…` id) followed, after the turn, by one `function_call_output` per result. The API pairs a
 * reasoning item with the item after it, so neither may be dropped or reordered.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 */
export function convertToOpenAIResponsesMessages(
  request: ModelRequest,
  options: ResponsesConversionOptions,
): ConvertedResponsesInput {
  const input: ResponseInputItem[] = [];
  for (const message of request.messages) input.push(...convertMessage(message, options));
  return request.system === undefined || request.system === '' ? { input } : { instructions: request.system, input };
}

const conversions: ConversionCache<readonly ResponseInputItem[]> = new WeakMap();

/**
 * One neutral message's input items, converted once per message (and per options it reads). Each item is
 * frozen too, not only the array: the body lists them one by one, and only a sealed one has its text cached.
 */
function convertMessage(message: Message, options: ResponsesConversionOptions): readonly ResponseInputItem[] {
  switch (message.role) {
    case 'system':
      return cachedConversion(conversions, message, '', undefined, () =>
        sealedElements([{ role: 'system', content: message.content }]),
      );
    case 'user':
      return cachedConversion(conversions, message, '', undefined, () => sealedElements([convertUser(message)]));
    case 'assistant':
      return cachedConversion(conversions, message, assistantKey(options), undefined, () =>
        sealedElements(convertAssistant(message, options)),
      );
    case 'tool':
      return cachedConversion(conversions, message, '', undefined, () =>
        sealedElements(
          message.content.map((result): ResponseInputItem => {
            const { output, changes } = convertToOpenAIResponsesToolResult(result);
            recordResultContentChanges(result, changes);
            return { type: 'function_call_output', call_id: result.callId, output };
          }),
        ),
      );
  }
}

// What an assistant message's conversion reads besides the message: the metadata key and its calls' names.
function assistantKey(options: ResponsesConversionOptions): string {
  return `${options.provider}\u0000${options.namingKey}`;
}

function convertUser(message: UserMessage): EasyInputMessage {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  return { role: 'user', content: message.content.map((part) => ({ type: 'input_text', text: part.text })) };
}

function convertAssistant(message: AssistantMessage, options: ResponsesConversionOptions): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const hosted = hostedItemsOf(message.providerMetadata?.[options.provider]);
  let openMessage: ResponseOutputMessage | undefined;
  for (const [index, part] of message.content.entries()) {
    if (hostedAt(hosted, index, items)) openMessage = undefined;
    const metadata = part.providerMetadata?.[options.provider];
    if (part.type === 'text') {
      const itemId = stringField(metadata, 'itemId');
      if (itemId === undefined) {
        openMessage = undefined;
        items.push({ role: 'assistant', content: part.text });
        continue;
      }
      // Several output_text parts of one message item come back as consecutive text parts with its id.
      if (openMessage === undefined || openMessage.id !== itemId) {
        openMessage = outputMessage(itemId, metadata);
        items.push(openMessage);
      }
      openMessage.content.push(outputContent(part, metadata));
      continue;
    }
    openMessage = undefined;
    if (part.type === 'reasoning') {
      const item = metadata?.['item'];
      // Reasoning from another provider, or without its item, cannot be sent to OpenAI: it is left out. A
      // shallow copy, to be frozen with the other items without freezing the caller's metadata object.
      if (isObject(item)) items.push({ ...item } as unknown as ResponseReasoningItem);
      continue;
    }
    const itemId = stringField(metadata, 'itemId');
    items.push({
      type: 'function_call',
      call_id: part.id,
      name: options.toProviderName(part.name),
      arguments: argumentsForHistory(part),
      ...(itemId === undefined ? {} : { id: itemId }),
    });
  }
  hostedAt(hosted, message.content.length, items);
  return items;
}

/** The hosted tools' items a turn kept (see `buildOpenAIResponsesTurn`), each with its place among the parts. */
function hostedItemsOf(metadata: JsonObject | undefined): { readonly at: number; readonly item: JsonObject }[] {
  const kept = metadata?.['hostedItems'];
  if (!Array.isArray(kept)) return [];
  return kept.flatMap((entry) =>
    isObject(entry) && typeof entry['at'] === 'number' && isObject(entry['item'])
      ? [{ at: entry['at'], item: entry['item'] }]
      : [],
  );
}

/** Pushes (shallow copies of) the hosted items that stood before part `index`; says whether there were any. */
function hostedAt(
  hosted: readonly { readonly at: number; readonly item: JsonObject }[],
  index: number,
  items: ResponseInputItem[],
): boolean {
  let pushed = false;
  for (const entry of hosted) {
    if (entry.at !== index) continue;
    items.push({ ...entry.item } as unknown as ResponseInputItem);
    pushed = true;
  }
  return pushed;
}

function outputMessage(id: string, metadata: JsonObject | undefined): ResponseOutputMessage {
  const phase = stringField(metadata, 'phase');
  const message: ResponseOutputMessage = { type: 'message', id, role: 'assistant', status: 'completed', content: [] };
  if (phase === 'commentary' || phase === 'final_answer') message.phase = phase;
  return message;
}

function outputContent(part: TextPart, metadata: JsonObject | undefined): ResponseOutputMessage['content'][number] {
  if (metadata?.['refusal'] === true) return { type: 'refusal', refusal: part.text };
  return { type: 'output_text', text: part.text, annotations: [] };
}

function stringField(metadata: JsonObject | undefined, key: string): string | undefined {
  const value = metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
