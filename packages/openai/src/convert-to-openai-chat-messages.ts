import type { AssistantMessage, ModelRequest, UserMessage } from '@toolcircuit/core';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import { argumentsForHistory } from './openai-shared-tool-calls.js';
import { toolResultOutput } from './openai-shared-tool-result-output.js';

export interface ChatConversionOptions {
  readonly systemRole: 'system' | 'developer';
  readonly toProviderName: (name: string) => string;
}

/**
 * Neutral history → Chat Completions messages. The neutral tool message (every result of one turn) becomes
 * one `{role: 'tool', tool_call_id, content}` message per result, consecutive and in call order, right after
 * the assistant message that made the calls. Tool messages have no error flag, so a failed result says so
 * in its text. Reasoning parts are dropped: Chat Completions has no field to send them back in.
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
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        messages.push({ role: options.systemRole, content: message.content });
        break;
      case 'user':
        messages.push(convertUser(message));
        break;
      case 'assistant':
        messages.push(convertAssistant(message, options));
        break;
      case 'tool':
        for (const result of message.content) {
          messages.push({ role: 'tool', tool_call_id: result.callId, content: toolResultOutput(result) });
        }
        break;
    }
  }
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
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool_call') continue;
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
