import type { ModelRequest, TextGrammar, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionCustomTool,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
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
  readonly tools: readonly ChatCompletionTool[];
}

/**
 * Translates the catalogue: `{type: 'function', function: {name, description, parameters, strict?}}`, and a
 * text tool as `{type: 'custom', custom: {name, description, format}}` when `customTools` is on (OpenAI's
 * own API; compatible servers rarely know custom tools, so a text tool is a one-string function there). The
 * list and its tools are frozen: the same list goes in every step's body, and its text is then made once.
 */
export function prepareOpenAIChatTools(
  declarations: readonly ToolDeclaration[],
  schemas: OpenAISchemaOptions,
  provider = 'openai',
  customTools = provider === 'openai',
): OpenAIChatTools {
  const toolSet = createOpenAIToolSet(declarations, schemas, provider, { customTools, nativeBuiltins: [] });
  const tools = toolSet.definitions.map((definition): ChatCompletionTool => {
    if (definition.kind === 'custom') {
      const custom: ChatCompletionCustomTool.Custom = {
        name: definition.name,
        format: chatCustomFormat(definition.grammar),
      };
      if (definition.description !== '') custom.description = definition.description;
      return { type: 'custom', custom: { ...custom, ...definition.extra } };
    }
    if (definition.kind === 'native') throw new Error('Chat Completions declares no native built-in tools');
    return {
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
    };
  });
  return { toolSet, tools: sealForReuse(sealedElements(tools)) };
}

function chatCustomFormat(
  grammar: TextGrammar | undefined,
): ChatCompletionCustomTool.Custom.Text | ChatCompletionCustomTool.Custom.Grammar {
  if (grammar === undefined) return { type: 'text' };
  return { type: 'grammar', grammar: { syntax: grammar.syntax, definition: grammar.definition } };
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
  const hosted = chatHostedTools(request, provider);
  if (prepared.tools.length === 0 && hosted.length === 0) return {};
  // The frozen prepared list itself when nothing is added, so that its cached text is reused; nothing writes to it.
  const fields: ChatToolFields = {
    tools: hosted.length === 0 ? (prepared.tools as ChatCompletionTool[]) : [...prepared.tools, ...hosted],
  };
  const choice = resolveToolChoice(request, prepared.toolSet, provider);
  if (choice !== undefined) {
    fields.tool_choice =
      typeof choice === 'string'
        ? choice
        : 'builtin' in choice
          ? 'required'
          : choice.custom
            ? { type: 'custom', custom: { name: choice.name } }
            : { type: 'function', function: { name: choice.name } };
  }
  if (request.parallelToolCalls !== undefined) fields.parallel_tool_calls = request.parallelToolCalls;
  return fields;
}

/**
 * Chat Completions runs no hosted tools of its own: web search there is a model family (`*-search-preview`, with
 * `web_search_options` in the options bag), not a tool, and there is no code execution. A request that offers
 * a neutral one is refused here rather than sent without it. A `provider` tool with an entry for this adapter
 * is a compatible server's own tool (OpenRouter's `openrouter:web_search`…): it goes after the catalogue's tools
 * as given; one that names no entry for this adapter is for other providers and is left out.
 */
function chatHostedTools(request: ModelRequest, provider: string): ChatCompletionTool[] {
  const tools: ChatCompletionTool[] = [];
  for (const tool of request.hostedTools ?? []) {
    const own = tool.providerOptions?.[provider];
    if (tool.kind === 'provider') {
      if (own !== undefined) tools.push(sealForReuse({ ...own } as unknown as ChatCompletionTool));
      continue;
    }
    throw new OpenAIConfigurationError(
      provider,
      'invalid_option',
      'hostedTools',
      `Chat Completions has no hosted "${tool.kind}" tool; use the Responses adapter (createOpenAIResponsesModel), or a search model with providerOptions.${provider}.web_search_options.`,
    );
  }
  return tools;
}
