import type { ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core';
import type { FunctionTool, ResponseCreateParamsBase, Tool } from 'openai/resources/responses/responses';
import { sealedElements } from './openai-shared-request-body.js';
import { createOpenAIToolSet, type OpenAIToolSet, resolveToolChoice } from './openai-shared-tool-set.js';

/** A catalogue translated once for the Responses API. */
export interface OpenAIResponsesTools {
  readonly toolSet: OpenAIToolSet;
  /** Function tools; with the hosted tool search, also the `tool_search` tool. */
  readonly tools: readonly (FunctionTool | Tool)[];
}

/**
 * Translates the catalogue into flat function tools `{type: 'function', name, description, parameters,
 * strict}`. `strict` is always sent: the Responses API treats an absent `strict` as true and would then
 * reject schemas written for non-strict mode. It is per function: with strict mode on, a tool strict mode would
 * narrow is sent with `strict: false` and its faithful schema (see OpenAIToolDefinition.strict). The list and its tools are frozen: the same list goes in every
 * step's body, and its text is then made once.
 */
export function prepareOpenAIResponsesTools(
  declarations: readonly ToolDeclaration[],
  strict: boolean,
): OpenAIResponsesTools {
  const toolSet = createOpenAIToolSet(declarations, strict);
  const tools = toolSet.definitions.map(
    (definition): FunctionTool => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      strict: definition.strict,
    }),
  );
  return { toolSet, tools: sealForReuse(sealedElements(tools)) };
}

type ResponsesToolFields = Pick<ResponseCreateParamsBase, 'tools' | 'tool_choice' | 'parallel_tool_calls'>;

/**
 * The request fields about tools; `tool_choice` and `parallel_tool_calls` only go with tools.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
export function openAIResponsesToolFields(
  request: ModelRequest,
  prepared: OpenAIResponsesTools,
  provider: string,
): ResponsesToolFields {
  if (prepared.tools.length === 0) return {};
  // The frozen prepared list itself, not a copy, so that its cached text is reused; nothing writes to it.
  const fields: ResponsesToolFields = { tools: prepared.tools as Tool[] };
  const choice = resolveToolChoice(request, prepared.toolSet, provider);
  if (choice !== undefined) {
    fields.tool_choice = typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
  }
  if (request.parallelToolCalls !== undefined) fields.parallel_tool_calls = request.parallelToolCalls;
  return fields;
}
