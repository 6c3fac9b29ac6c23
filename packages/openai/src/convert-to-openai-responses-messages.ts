import type {
  AssistantMessage,
  ConversionCache,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  TextPart,
  ToolCallPart,
  ToolMessage,
  UserMessage,
} from '@toolcircuit/core';
import { cachedConversion, recordResultContentChanges, toolCallsOf } from '@toolcircuit/core/provider';
import type {
  EasyInputMessage,
  ResponseInputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesOutput, type ResponsesCallKind } from './convert-to-openai-responses-output.js';
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
  // A tool message's outputs depend on how the calls it answers were made (function, custom, built-in type).
  let previous: AssistantMessage | undefined;
  for (const message of request.messages) {
    input.push(...convertMessage(message, options, previous));
    if (message.role === 'assistant') previous = message;
  }
  return request.system === undefined || request.system === '' ? { input } : { instructions: request.system, input };
}

const conversions: ConversionCache<readonly ResponseInputItem[]> = new WeakMap();

/**
 * One neutral message's input items, converted once per message (and per options it reads). Each item is
 * frozen too, not only the array: the body lists them one by one, and only a sealed one has its text cached.
 */
function convertMessage(
  message: Message,
  options: ResponsesConversionOptions,
  previous: AssistantMessage | undefined,
): readonly ResponseInputItem[] {
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
      return cachedConversion(conversions, message, options.provider, previous, () =>
        sealedElements(toolOutputs(message, previous, options.provider)),
      );
  }
}

/** One output item per result, of the type its call's item takes (see `convertToOpenAIResponsesOutput`). */
function toolOutputs(
  message: ToolMessage,
  previous: AssistantMessage | undefined,
  provider: string,
): ResponseInputItem[] {
  const calls = previous === undefined ? [] : toolCallsOf(previous.content);
  return message.content.map((result) => {
    const call = calls.find((candidate) => candidate.id === result.callId);
    const { item, changes } = convertToOpenAIResponsesOutput(
      result,
      call === undefined ? 'function_call' : callKindOf(call, provider),
    );
    recordResultContentChanges(result, changes);
    return item;
  });
}

/**
 * The item type a call goes back as: what this adapter recorded when it read the call, else a custom tool call
 * for a text input (a text tool's call made on another provider), else a function call.
 */
function callKindOf(part: ToolCallPart, provider: string): ResponsesCallKind {
  const itemType = part.providerMetadata?.[provider]?.['itemType'];
  if (
    itemType === 'custom_tool_call' ||
    itemType === 'apply_patch_call' ||
    itemType === 'shell_call' ||
    itemType === 'local_shell_call'
  ) {
    return itemType;
  }
  return typeof part.input === 'string' ? 'custom_tool_call' : 'function_call';
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
    if (part.type === 'provider') {
      openMessage = undefined;
      // Ours and an item (a Responses item has a `type`; a Chat part does not): back in its place, unchanged.
      if (part.provider === options.provider && typeof part.data['type'] === 'string') {
        items.push({ ...part.data } as unknown as ResponseInputItem);
      }
      continue;
    }
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
    items.push(callItem(part, options));
  }
  hostedAt(hosted, message.content.length, items);
  return items;
}

/**
 * A call as the item it came in: a built-in type's item as received (with the arguments the executor saw, which
 * a repair may have changed), a custom tool call with its text, else a function call.
 */
function callItem(part: ToolCallPart, options: ResponsesConversionOptions): ResponseInputItem {
  const metadata = part.providerMetadata?.[options.provider];
  const kind = callKindOf(part, options.provider);
  const itemId = stringField(metadata, 'itemId');
  const item = metadata?.['item'];
  if (kind !== 'function_call' && kind !== 'custom_tool_call' && isObject(item)) {
    const payload = kind === 'apply_patch_call' ? 'operation' : 'action';
    return {
      ...item,
      ...(isObject(part.input as JsonValue) ? { [payload]: part.input } : {}),
    } as unknown as ResponseInputItem;
  }
  if (kind === 'custom_tool_call') {
    return {
      type: 'custom_tool_call',
      call_id: part.id,
      name: options.toProviderName(part.name),
      input: typeof part.input === 'string' ? part.input : (part.rawInput ?? ''),
      ...(itemId === undefined ? {} : { id: itemId }),
    };
  }
  return {
    type: 'function_call',
    call_id: part.id,
    name: options.toProviderName(part.name),
    arguments: argumentsForHistory(part),
    ...(itemId === undefined ? {} : { id: itemId }),
  };
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
  // The annotations as the API gave them (citations keep the answer's sources in the history).
  const annotations = Array.isArray(metadata?.['annotations']) ? metadata['annotations'] : [];
  return {
    type: 'output_text',
    text: part.text,
    annotations,
  } as unknown as ResponseOutputMessage['content'][number];
}

function stringField(metadata: JsonObject | undefined, key: string): string | undefined {
  const value = metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
