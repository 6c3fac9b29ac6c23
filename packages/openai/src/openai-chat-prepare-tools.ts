import type { ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type { ChatCompletionCreateParamsBase, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { OpenAIConfigurationError } from './openai-configuration-error.js';
import { sealedElements } from './openai-shared-request-body.js';
import {
  createOpenAIToolSet,
  type OpenAISchemaOptions,
  type OpenAIToolSet,
  resolveToolChoice,
} from './openai-shared-tool-set.js';

/** A catalogue translated once for Chat Completions. */
export interface OpenAIChatTools {
  readonly toolSet: OpenAIToolSet;
  readonly tools: readonly ChatCompletionFunctionTool[];
}

/**
 * Translates the catalogue: `{type: 'function', function: {name, description, parameters, strict?}}`. The
 * list and its tools are frozen: the same list goes in every step's body, and its text is then made once.
 */
export function prepareOpenAIChatTools(
  declarations: readonly ToolDeclaration[],
  schemas: OpenAISchemaOptions,
  provider = 'openai',
): OpenAIChatTools {
  const toolSet = createOpenAIToolSet(declarations, schemas, provider);
  const tools = toolSet.definitions.map(
    (definition): ChatCompletionFunctionTool => ({
      type: 'function',
      function: {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        // Sent only when on: `strict: false` is the API default, and some compatible servers reject the field.
        // The tool's own fields for this provider go in `function`, where Chat Completions keeps a tool's.
        ...definition.extra,
        // Per function: a tool strict mode would narrow, or whose own `strict` is false, goes without it (see
        // OpenAIToolDefinition.strict).
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
  checkChatHostedTools(request, provider);
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

/**
 * Chat Completions runs no hosted tools: web search there is a model family (`*-search-preview`, with
 * `web_search_options` in the options bag), not a tool, and there is no code execution. A request that
 * offers one is refused here rather than sent without it; a `provider` tool that names no entry for this
 * adapter is for other providers and is left out.
 */
function checkChatHostedTools(request: ModelRequest, provider: string): void {
  for (const tool of request.hostedTools ?? []) {
    if (tool.kind === 'provider' && tool.providerOptions?.[provider] === undefined) continue;
    throw new OpenAIConfigurationError(
      provider,
      'invalid_option',
      'hostedTools',
      `Chat Completions has no hosted "${tool.kind}" tool; use the Responses adapter (createOpenAIResponsesModel), or a search model with providerOptions.${provider}.web_search_options.`,
    );
  }
}
