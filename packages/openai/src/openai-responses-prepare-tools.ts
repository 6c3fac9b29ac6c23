import type { HostedTool, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type { FunctionTool, ResponseCreateParamsBase, Tool } from 'openai/resources/responses/responses';
import { sealedElements } from './openai-shared-request-body.js';
import {
  createOpenAIToolSet,
  type OpenAISchemaOptions,
  type OpenAIToolSet,
  resolveToolChoice,
} from './openai-shared-tool-set.js';

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
  schemas: OpenAISchemaOptions,
  provider = 'openai',
): OpenAIResponsesTools {
  const toolSet = createOpenAIToolSet(declarations, schemas, provider);
  const tools = toolSet.definitions.map(
    (definition): FunctionTool => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      ...definition.extra,
      // Last: the tool's strict preference and the strict-off fallback decide it, never a raw field.
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
  const hosted = (request.hostedTools ?? []).flatMap((tool) => responsesHostedTool(tool, provider));
  if (prepared.tools.length === 0 && hosted.length === 0) return {};
  // The frozen prepared list itself when nothing is added, so that its cached text is reused.
  const fields: ResponsesToolFields = {
    tools: hosted.length === 0 ? (prepared.tools as Tool[]) : [...prepared.tools, ...hosted],
  };
  const choice = resolveToolChoice(request, prepared.toolSet, provider);
  if (choice !== undefined) {
    fields.tool_choice = typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
  }
  if (request.parallelToolCalls !== undefined) fields.parallel_tool_calls = request.parallelToolCalls;
  return fields;
}

/**
 * A neutral hosted tool as the Responses API names it: `web_search` (with `filters.allowed_domains`) and
 * `code_interpreter` (an automatic container). `maxUses` and `blockedDomains` have no Responses field and
 * are not sent. A `provider` tool only when it has an entry for this adapter; that entry (or
 * `providerOptions.openai` of a neutral one) goes over the mapped fields.
 *
 * @see https://platform.openai.com/docs/guides/tools-web-search
 */
export function responsesHostedTool(tool: HostedTool, provider: string): Tool[] {
  const own = tool.providerOptions?.[provider];
  if (tool.kind === 'provider') return own === undefined ? [] : [sealForReuse({ ...own } as unknown as Tool)];
  const allowed = tool.options?.allowedDomains;
  const mapped: Record<string, unknown> =
    tool.kind === 'web_search'
      ? { type: 'web_search', ...(allowed === undefined ? {} : { filters: { allowed_domains: [...allowed] } }) }
      : { type: 'code_interpreter', container: { type: 'auto' } };
  return [sealForReuse({ ...mapped, ...own } as unknown as Tool)];
}
