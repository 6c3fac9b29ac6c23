import type {
  AssistantMessage,
  ConversionCache,
  Message,
  ModelRequest,
  ToolMessage,
  UserMessage,
} from '@toolcircuit/core';
import { cachedConversion, recordResultContentChanges } from '@toolcircuit/core/provider';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import { convertToOpenAIChatToolResult } from './convert-to-openai-tool-result.js';
import { sealedElements } from './openai-shared-request-body.js';
import { argumentsForHistory } from './openai-shared-tool-calls.js';

export interface ChatConversionOptions {
  readonly systemRole: 'system' | 'developer';
  /** Whether text tools are declared as custom tools (their calls then go back as `custom` tool calls). */
  readonly customTools?: boolean;
  readonly toProviderName: (name: string) => string;
  /** Identifies what `toProviderName` does to any name: the assistant messages' conversions key on it. */
  readonly namingKey: string;
}

/**
 * Neutral history → Chat Completions messages. The neutral tool message (every result of one turn) becomes
 * one `{role: 'tool', tool_call_id, content}` message per result, consecutive and in call order, right after
 * the assistant message that made the calls. Tool messages have no error flag, so a failed result says so
 * in its text. Reasoning parts are dropped: Chat Completions has no field to send them back in; so are
 * `provider` parts (fields of a message this adapter could not read) and a text's sources.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export function convertToOpenAIChatMessages(
  request: ModelRequest,
  options: ChatConversionOptions,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: options.systemRole, content: request.system });
  }
  for (const message of request.messages) messages.push(...convertMessage(message, options));
  return messages;
}

const conversions: ConversionCache<readonly ChatCompletionMessageParam[]> = new WeakMap();

/**
 * One neutral message's Chat messages, converted once per message (and per options it reads). Each message is
 * frozen too, not only the array: the body lists them one by one, and only a sealed one has its text cached.
 */
function convertMessage(message: Message, options: ChatConversionOptions): readonly ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'system':
      return cachedConversion(conversions, message, options.systemRole, undefined, () =>
        sealedElements([{ role: options.systemRole, content: message.content }]),
      );
    case 'user':
      return cachedConversion(conversions, message, '', undefined, () => sealedElements([convertUser(message)]));
    case 'assistant':
      return cachedConversion(
        conversions,
        message,
        `${options.customTools === true}\u0000${options.namingKey}`,
        undefined,
        () => sealedElements([convertAssistant(message, options)]),
      );
    case 'tool':
      return cachedConversion(conversions, message, '', undefined, () => sealedElements(convertToolMessage(message)));
  }
}

/**
 * One `tool` message per result; the images and files a tool message cannot hold follow in ONE user message
 * after all of them (the API wants the tool messages right after the assistant turn), each call's parts
 * introduced by a line naming the call.
 */
function convertToolMessage(message: ToolMessage): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  const attachments: ChatCompletionContentPart[] = [];
  for (const result of message.content) {
    const converted = convertToOpenAIChatToolResult(result);
    recordResultContentChanges(result, converted.changes);
    messages.push({ role: 'tool', tool_call_id: result.callId, content: converted.content });
    attachments.push(...converted.attachments);
  }
  if (attachments.length > 0) messages.push({ role: 'user', content: attachments });
  return messages;
}

function convertUser(message: UserMessage): ChatCompletionUserMessageParam {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  return { role: 'user', content: message.content.map((part) => ({ type: 'text', text: part.text })) };
}

function convertAssistant(
  message: AssistantMessage,
  options: ChatConversionOptions,
): ChatCompletionAssistantMessageParam {
  const text = message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool_call') continue;
    if (options.customTools === true && typeof part.input === 'string') {
      // A text tool's call, declared here as a custom tool: its text goes back as it is.
      toolCalls.push({
        id: part.id,
        type: 'custom',
        custom: { name: options.toProviderName(part.name), input: part.input },
      });
      continue;
    }
    toolCalls.push({
      id: part.id,
      type: 'function',
      function: { name: options.toProviderName(part.name), arguments: argumentsForHistory(part) },
    });
  }
  // `content: null` is how the API itself writes a turn that only made calls; without calls it needs a string.
  const content = text === '' && toolCalls.length > 0 ? null : text;
  const assistant: ChatCompletionAssistantMessageParam = { role: 'assistant', content };
  if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
  return assistant;
}
