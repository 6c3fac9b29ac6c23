import type { BuiltinToolKind, HostedTool, ModelRequest, TextGrammar, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type { CustomTool, FunctionTool, ResponseCreateParamsBase, Tool } from 'openai/resources/responses/responses';
import type { CustomToolInputFormat } from 'openai/resources/shared';
import { sealedElements } from './openai-shared-request-body.js';
import {
  createOpenAIToolSet,
  type OpenAISchemaOptions,
  type OpenAIToolDefinition,
  type OpenAIToolSet,
  resolveToolChoice,
} from './openai-shared-tool-set.js';

/**
 * The built-in tool types the Responses API declares natively, and the output item type of their calls:
 * a catalogue tool of one of these kinds is sent as `{ type }` and its calls come back as that item.
 * (Its `computer` tool is not among them: a computer call's only answer is a screenshot, which could not tell
 * the model that a call was refused; a computer tool goes as a function here.)
 */
export const RESPONSES_NATIVE_BUILTINS: Readonly<Partial<Record<BuiltinToolKind, { type: string; call: string }>>> = {
  apply_patch: { type: 'apply_patch', call: 'apply_patch_call' },
  shell: { type: 'shell', call: 'shell_call' },
  local_shell: { type: 'local_shell', call: 'local_shell_call' },
};

const NATIVE_KINDS = Object.keys(RESPONSES_NATIVE_BUILTINS) as BuiltinToolKind[];

/** A catalogue translated once for the Responses API. */
export interface OpenAIResponsesTools {
  readonly toolSet: OpenAIToolSet;
  /** Function tools; with the hosted tool search, also the `tool_search` tool. */
  readonly tools: readonly (FunctionTool | Tool)[];
}

/**
 * Translates the catalogue into flat function tools `{type: 'function', name, description, parameters,
 * strict}`, text tools into custom tools `{type: 'custom', name, description, format}` (a Lark or regex
 * grammar, or free text), and tools of a native built-in type into that type (`{type: 'apply_patch'}`…).
 * `strict` is always sent on functions: the Responses API treats an absent `strict` as true and would then
 * reject schemas written for non-strict mode. It is per function: with strict mode on, a tool strict mode would
 * narrow is sent with `strict: false` and its faithful schema (see OpenAIToolDefinition.strict). The list and its tools are frozen: the same list goes in every
 * step's body, and its text is then made once.
 */
export function prepareOpenAIResponsesTools(
  declarations: readonly ToolDeclaration[],
  schemas: OpenAISchemaOptions,
  provider = 'openai',
): OpenAIResponsesTools {
  const toolSet = createOpenAIToolSet(declarations, schemas, provider, {
    customTools: true,
    nativeBuiltins: NATIVE_KINDS,
  });
  const tools = toolSet.definitions.map(responsesTool);
  return { toolSet, tools: sealForReuse(sealedElements(tools)) };
}

function responsesTool(definition: OpenAIToolDefinition): FunctionTool | Tool {
  switch (definition.kind) {
    case 'function':
      return {
        type: 'function',
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        ...definition.extra,
        // Last: the tool's strict preference and the strict-off fallback decide it, never a raw field.
        strict: definition.strict,
      };
    case 'custom': {
      const tool: CustomTool = { type: 'custom', name: definition.name, format: customFormat(definition.grammar) };
      if (definition.description !== '') tool.description = definition.description;
      return { ...tool, ...definition.extra } as CustomTool;
    }
    case 'native':
      // The tool's own fields go over the native type (`environment` of a shell, a newer type name…).
      return { type: RESPONSES_NATIVE_BUILTINS[definition.builtin]?.type, ...definition.extra } as Tool;
  }
}

function customFormat(grammar: TextGrammar | undefined): CustomToolInputFormat {
  if (grammar === undefined) return { type: 'text' };
  return { type: 'grammar', syntax: grammar.syntax, definition: grammar.definition };
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
    fields.tool_choice =
      typeof choice === 'string'
        ? choice
        : 'builtin' in choice
          ? // `local_shell` has no tool choice of its own: requiring a call is the closest.
            choice.builtin === 'local_shell'
            ? 'required'
            : ({ type: RESPONSES_NATIVE_BUILTINS[choice.builtin]?.type } as NonNullable<
                ResponsesToolFields['tool_choice']
              >)
          : choice.custom
            ? { type: 'custom', name: choice.name }
            : { type: 'function', name: choice.name };
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
