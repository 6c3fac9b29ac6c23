import type { ToolChoice as AnthropicToolChoice, Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { HostedTool, ToolChoice, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import { type SchemaChange, type ToolNameMap, textToolParameters, translateSchema } from '@toolcircuit/schema';
import { AnthropicConfigurationError } from './anthropic-configuration-error.js';
import { ANTHROPIC_NATIVE_BUILTINS, type AnthropicToolNames, anthropicToolNames } from './anthropic-tool-names.js';

/**
 * A catalogue translated once for the Messages API. `tools` and each tool in it are frozen: every request of
 * the catalogue sends this same list, so its JSON text is made once too (see anthropic-request-body-text.ts).
 */
export interface AnthropicTools {
  readonly tools: readonly Tool[];
  readonly names: AnthropicToolNames;
  /** What the schema and name translation changed, for diagnostics. */
  readonly changes: readonly SchemaChange[];
}

export interface AnthropicToolSettings {
  /** The prepared (frozen, shared) list itself, not a copy (with the request's hosted tools after it). */
  readonly tools?: readonly ToolUnion[];
  readonly tool_choice?: AnthropicToolChoice;
}

// The loop passes the same frozen array every turn: translating it again would redo identical work.
const cache = new WeakMap<readonly ToolDeclaration[], AnthropicTools>();

/**
 * Translates a catalogue's declarations (schemas and names), cached by the array's identity. A tool of a built-in
 * type Anthropic declares natively (bash, text editor, computer, memory) is sent as that type under its fixed
 * name; a text tool as a function with one string parameter, `input` (Anthropic has no custom tools).
 */
export function prepareAnthropicTools(declarations: readonly ToolDeclaration[]): AnthropicTools {
  const cached = cache.get(declarations);
  if (cached !== undefined) return cached;
  const names = anthropicToolNames(declarations);
  const changes: SchemaChange[] = [...names.changes];
  const tools = declarations.map((declaration): Tool => {
    const native = declaration.builtin === undefined ? undefined : ANTHROPIC_NATIVE_BUILTINS[declaration.builtin.kind];
    if (native !== undefined) {
      const display = declaration.builtin?.display;
      const entry = {
        ...native,
        ...(display === undefined ? {} : { display_width_px: display.width, display_height_px: display.height }),
        ...declaration.providerOptions?.['anthropic'],
      };
      return sealForReuse(entry as unknown as Tool);
    }
    const translated =
      declaration.textInput === undefined
        ? translateSchema(declaration.inputSchema, 'anthropic')
        : textToolParameters(declaration.textInput.grammar, 'anthropic');
    changes.push(...translated.changes);
    const tool: Tool = {
      name: names.toProvider(declaration.name),
      input_schema: translated.schema as Tool.InputSchema,
    };
    if (declaration.description !== '') tool.description = declaration.description;
    if (declaration.strict !== undefined) tool.strict = declaration.strict;
    if (declaration.inputExamples !== undefined) {
      tool.input_examples = declaration.inputExamples.map((example) => ({ ...example }));
    }
    // The tool's own Anthropic fields (cache_control, defer_loading, allowed_callers…) go over the adapter's.
    const own = declaration.providerOptions?.['anthropic'];
    if (own !== undefined) Object.assign(tool, own);
    return sealForReuse(tool);
  });
  const prepared: AnthropicTools = { tools: sealForReuse(tools), names, changes };
  cache.set(declarations, prepared);
  return prepared;
}

/**
 * The request's `tools` and `tool_choice`. `parallelToolCalls: false` becomes `disable_parallel_tool_use`,
 * which Anthropic only accepts on auto/any/tool choices. Without tools nothing is sent: the API refuses a
 * `tool_choice` that has no tools to choose from.
 */
export function anthropicToolSettings(
  prepared: AnthropicTools,
  toolChoice: ToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
  extra: AnthropicToolListOptions = {},
): AnthropicToolSettings {
  const tools = anthropicToolList(prepared.tools, extra);
  if (tools.length === 0) return {};
  const disable = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (toolChoice === undefined) {
    return parallelToolCalls === false ? { tools, tool_choice: { type: 'auto', ...disable } } : { tools };
  }
  if (toolChoice === 'none') return { tools, tool_choice: { type: 'none' } };
  if (toolChoice === 'auto') return { tools, tool_choice: { type: 'auto', ...disable } };
  if (toolChoice === 'required') return { tools, tool_choice: { type: 'any', ...disable } };
  const name = providerToolName(prepared.names, toolChoice.name);
  if (!tools.some((tool) => (tool as { name?: unknown }).name === name)) {
    throw new AnthropicConfigurationError(
      'unknown_tool_choice',
      'toolChoice',
      `toolChoice names "${toolChoice.name}", which is not in the request's tools.`,
    );
  }
  return { tools, tool_choice: { type: 'tool', name, ...disable } };
}

export interface AnthropicToolListOptions {
  readonly hostedTools?: readonly HostedTool[] | undefined;
  readonly cacheTools?: boolean | undefined;
}

const NO_HOSTED: readonly HostedTool[] = Object.freeze([]);
const lists = new WeakMap<
  readonly Tool[],
  WeakMap<readonly HostedTool[], { plain?: ToolUnion[]; cached?: ToolUnion[] }>
>();

/**
 * The catalogue's tools, then the hosted ones, with `cache_control` on the last when the request asks for
 * the list to be cached (a cache breakpoint covers everything before it: system-less prefixes start with
 * the tools). Made once per prepared list, hosted list and hint, sealed, so the text is reused every step.
 */
function anthropicToolList(tools: readonly Tool[], options: AnthropicToolListOptions): readonly ToolUnion[] {
  const hosted = options.hostedTools ?? NO_HOSTED;
  const cache = options.cacheTools === true;
  if (hosted.length === 0 && !cache) return tools;
  let byHosted = lists.get(tools);
  if (byHosted === undefined) {
    byHosted = new WeakMap();
    lists.set(tools, byHosted);
  }
  let made = byHosted.get(hosted);
  if (made === undefined) {
    made = {};
    byHosted.set(hosted, made);
  }
  const key = cache ? 'cached' : 'plain';
  const existing = made[key];
  if (existing !== undefined) return existing;
  const list: ToolUnion[] = [...tools, ...hosted.flatMap(anthropicHostedTool)];
  const last = list.at(-1);
  if (cache && last !== undefined)
    list[list.length - 1] = sealForReuse({ ...last, cache_control: { type: 'ephemeral' } });
  made[key] = sealForReuse(list);
  return list;
}

/**
 * A neutral hosted tool as the Messages API names it (server tools); a `provider` tool only when it has an
 * `anthropic` entry. `providerOptions.anthropic` goes over the mapped fields (e.g. a newer tool version).
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function anthropicHostedTool(tool: HostedTool): ToolUnion[] {
  const own = tool.providerOptions?.['anthropic'];
  if (tool.kind === 'provider') return own === undefined ? [] : [sealForReuse({ ...own } as unknown as ToolUnion)];
  const options = tool.options ?? {};
  const mapped: Record<string, unknown> =
    tool.kind === 'web_search'
      ? {
          type: 'web_search_20250305',
          name: 'web_search',
          ...(options.maxUses === undefined ? {} : { max_uses: options.maxUses }),
          ...(options.allowedDomains === undefined ? {} : { allowed_domains: [...options.allowedDomains] }),
          ...(options.blockedDomains === undefined ? {} : { blocked_domains: [...options.blockedDomains] }),
        }
      : { type: 'code_execution_20250825', name: 'code_execution' };
  return [sealForReuse({ ...mapped, ...own } as unknown as ToolUnion)];
}

/**
 * The provider name of a tool. Names outside the catalogue (a tool removed since the history was written)
 * are sent as they are rather than failing the whole request.
 */
export function providerToolName(names: ToolNameMap, name: string): string {
  try {
    return names.toProvider(name);
  } catch {
    return name;
  }
}

/**
 * The catalogue name of a tool the model called. A name the model invented is kept as it is, so the
 * executor can answer "unknown tool" to the model instead of the adapter throwing.
 */
export function neutralToolName(names: ToolNameMap, name: string): string {
  try {
    return names.fromProvider(name);
  } catch {
    return name;
  }
}
