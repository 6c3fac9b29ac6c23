import type { ToolChoice as AnthropicToolChoice, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolChoice, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core';
import { createToolNameMap, type SchemaChange, type ToolNameMap, translateSchema } from '@toolcircuit/schema';
import { AnthropicConfigurationError } from './anthropic-configuration-error.js';

/**
 * A catalogue translated once for the Messages API. `tools` and each tool in it are frozen: every request of
 * the catalogue sends this same list, so its JSON text is made once too (see anthropic-request-body-text.ts).
 */
export interface AnthropicTools {
  readonly tools: readonly Tool[];
  readonly names: ToolNameMap;
  /** What the schema and name translation changed, for diagnostics. */
  readonly changes: readonly SchemaChange[];
}

export interface AnthropicToolSettings {
  /** The prepared (frozen, shared) list itself, not a copy. */
  readonly tools?: readonly Tool[];
  readonly tool_choice?: AnthropicToolChoice;
}

// The loop passes the same frozen array every turn: translating it again would redo identical work.
const cache = new WeakMap<readonly ToolDeclaration[], AnthropicTools>();

/** Translates a catalogue's declarations (schemas and names), cached by the array's identity. */
export function prepareAnthropicTools(declarations: readonly ToolDeclaration[]): AnthropicTools {
  const cached = cache.get(declarations);
  if (cached !== undefined) return cached;
  const names = createToolNameMap(
    declarations.map((tool) => tool.name),
    'anthropic',
  );
  const changes: SchemaChange[] = [...names.changes];
  const tools = declarations.map((declaration): Tool => {
    const translated = translateSchema(declaration.inputSchema, 'anthropic');
    changes.push(...translated.changes);
    const tool: Tool = {
      name: names.toProvider(declaration.name),
      input_schema: translated.schema as Tool.InputSchema,
    };
    if (declaration.description !== '') tool.description = declaration.description;
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
): AnthropicToolSettings {
  if (prepared.tools.length === 0) return {};
  const tools = prepared.tools;
  const disable = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (toolChoice === undefined) {
    return parallelToolCalls === false ? { tools, tool_choice: { type: 'auto', ...disable } } : { tools };
  }
  if (toolChoice === 'none') return { tools, tool_choice: { type: 'none' } };
  if (toolChoice === 'auto') return { tools, tool_choice: { type: 'auto', ...disable } };
  if (toolChoice === 'required') return { tools, tool_choice: { type: 'any', ...disable } };
  const name = providerToolName(prepared.names, toolChoice.name);
  if (!tools.some((tool) => tool.name === name)) {
    throw new AnthropicConfigurationError(
      'unknown_tool_choice',
      'toolChoice',
      `toolChoice names "${toolChoice.name}", which is not in the request's tools.`,
    );
  }
  return { tools, tool_choice: { type: 'tool', name, ...disable } };
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
