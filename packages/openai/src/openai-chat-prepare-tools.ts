import type { ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core';
import type { ChatCompletionCreateParamsBase, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { sealedElements } from './openai-shared-request-body.js';
import { createOpenAIToolSet, type OpenAIToolSet, resolveToolChoice } from './openai-shared-tool-set.js';

/** A catalogue translated once for Chat Completions. */
export interface OpenAIChatTools {
  readonly toolSet: OpenAIToolSet;
  readonly tools: readonly ChatCompletionFunctionTool[];
}

/**
 * Translates the catalogue: `{type: 'function', function: {name, description, parameters, strict?}}`. The
 * list and its tools are frozen: the same list goes in every step's body, and its text is then made once.
 */
export function prepareOpenAIChatTools(declarations: readonly ToolDeclaration[], strict: boolean): OpenAIChatTools {
  const toolSet = createOpenAIToolSet(declarations, strict);
  const tools = toolSet.definitions.map(
    (definition): ChatCompletionFunctionTool => ({
      type: 'function',
      function: {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        // Sent only when on: `strict: false` is the API default, and some compatible servers reject the field.
        // Per function: a tool strict mode would narrow goes without it (see OpenAIToolDefinition.strict).
        ...(definition.strict ? { strict: true } : {}),
      },
    }),
  );
  return { toolSet, tools: sealForReuse(sealedElements(tools)) };
}

type ChatToolFields = Pick<ChatCompletionCreateParamsBase, 'tools' | 'tool_choice' | 'parallel_tool_calls'>;

/**
 * The request fields about tools. `tool_choice` and `parallel_tool_calls` are only sent with tools: the API
 * rejects them on a request without any.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export function openAIChatToolFields(
  request: ModelRequest,
  prepared: OpenAIChatTools,
  provider: string,
): ChatToolFields {
  if (prepared.tools.length === 0) return {};
  // The frozen prepared list itself, not a copy, so that its cached text is reused; nothing writes to it.
  const fields: ChatToolFields = { tools: prepared.tools as ChatCompletionFunctionTool[] };
  const choice = resolveToolChoice(request, prepared.toolSet, provider);
  if (choice !== undefined) {
    fields.tool_choice = typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
  }
  if (request.parallelToolCalls !== undefined) fields.parallel_tool_calls = request.parallelToolCalls;
  return fields;
}
