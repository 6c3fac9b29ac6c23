import type { BuiltinToolKind, JsonObject, ModelRequest, TextGrammar, ToolDeclaration } from '@toolcircuit/core';
import { descriptionWithExamples } from '@toolcircuit/core/provider';
import {
  createToolNameMap,
  restoreProviderInput,
  type SchemaChange,
  type SchemaTarget,
  textToolParameters,
  translateSchema,
} from '@toolcircuit/schema';
import { OpenAIConfigurationError } from './openai-configuration-error.js';
import type { ToolCallContext } from './openai-shared-tool-calls.js';

/** One catalogue tool as OpenAI will see it, before the API-specific wrapping. */
export type OpenAIToolDefinition = OpenAIFunctionDefinition | OpenAICustomDefinition | OpenAINativeDefinition;

/** A function tool: every tool with a JSON Schema, and a text tool where custom tools are not declared. */
export interface OpenAIFunctionDefinition {
  readonly kind: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
  /**
   * Whether this function is sent with `strict: true`: the tool's own `strict` preference, else the model's;
   * an explicit `false` is always respected. When strict is asked for but would narrow the tool's schema (an
   * open object it would close, a null it could not tell from an omitted key, a union it could not restore),
   * the tool is sent with `strict: false` and its faithful schema instead (change `strict-off`): OpenAI's
   * `strict` is per function, and the executor's validation keeps the looser tool sound.
   */
  readonly strict: boolean;
  /** The tool's `providerOptions` entry for this provider, merged over its wire entry (never its `strict`). */
  readonly extra: JsonObject | undefined;
}

/** A text tool (core's `defineTextTool`) declared as an OpenAI custom tool, with its grammar. */
export interface OpenAICustomDefinition {
  readonly kind: 'custom';
  readonly name: string;
  readonly description: string;
  readonly grammar: TextGrammar | undefined;
  readonly extra: JsonObject | undefined;
}

/** A catalogue tool of a built-in type (core's `builtin`) declared with the API's native type. */
export interface OpenAINativeDefinition {
  readonly kind: 'native';
  readonly builtin: BuiltinToolKind;
  /** The catalogue tool's name: native calls carry none, they are matched by type. */
  readonly neutralName: string;
  readonly extra: JsonObject | undefined;
}

/** What the API behind a tool set can declare natively. */
export interface OpenAIToolSetOptions {
  /** Text tools as custom tools (`type: 'custom'`); otherwise as functions with one string parameter. */
  readonly customTools: boolean;
  /** Built-in types declared with their native type; the others are declared as functions. */
  readonly nativeBuiltins: readonly BuiltinToolKind[];
}

const FUNCTIONS_ONLY: OpenAIToolSetOptions = { customTools: false, nativeBuiltins: [] };

/** A catalogue translated once for OpenAI: definitions, the name mapping, and what changed. */
export interface OpenAIToolSet extends ToolCallContext {
  readonly definitions: readonly OpenAIToolDefinition[];
  readonly toProviderName: (name: string) => string;
  /** Identifies what `toProviderName` does to any name (the name map's `key`): what cached conversions key on. */
  readonly namingKey: string;
  /** Every change the schema translator made (strict nullability, dropped keywords, renamed tools), for audits. */
  readonly changes: readonly SchemaChange[];
}

export function schemaTargetOf(strict: boolean): SchemaTarget {
  return strict ? 'openai-strict' : 'openai';
}

/** How the catalogue's schemas are translated: the adapter's `strict` and `keepUndeclaredKeys` options. */
export interface OpenAISchemaOptions {
  readonly strict: boolean;
  readonly keepUndeclaredKeys: boolean;
}

/**
 * Translates every declaration's schema and name for the OpenAI target. A tool's own `strict` overrides the
 * model's for that tool (its schema is translated for that mode, and falls back to `strict: false` when strict
 * would narrow it); input examples, which OpenAI has no
 * field for, are appended to the description.
 */
export function createOpenAIToolSet(
  tools: readonly ToolDeclaration[],
  options: OpenAISchemaOptions,
  provider = 'openai',
  native: OpenAIToolSetOptions = FUNCTIONS_ONLY,
): OpenAIToolSet {
  const nameMap = createToolNameMap(
    tools.map((tool) => tool.name),
    schemaTargetOf(options.strict),
  );
  // Per tool, how its calls' arguments are restored: by the target and options it was translated with, so a
  // tool whose own `strict` differs from the model's is restored by its own dialect.
  const restorers = new Map<string, (input: unknown) => unknown>();
  const textTools = new Set<string>();
  const builtins = new Map<BuiltinToolKind, string>();
  const changes: SchemaChange[] = [...nameMap.changes];
  const definitions = tools.map((tool): OpenAIToolDefinition => {
    const extra = extraOf(tool.providerOptions?.[provider]);
    const kind = tool.builtin?.kind;
    if (kind !== undefined && native.nativeBuiltins.includes(kind)) {
      const taken = builtins.get(kind);
      if (taken !== undefined) {
        throw new OpenAIConfigurationError(
          provider,
          'invalid_option',
          'tools',
          `"${taken}" and "${tool.name}" both implement the built-in "${kind}" tool; the API takes one tool of each type.`,
        );
      }
      builtins.set(kind, tool.name);
      return { kind: 'native', builtin: kind, neutralName: tool.name, extra };
    }
    const name = nameMap.toProvider(tool.name);
    const description = descriptionWithExamples(tool);
    const toolStrict = tool.strict ?? options.strict;
    if (tool.textInput !== undefined) {
      textTools.add(tool.name);
      if (native.customTools) return { kind: 'custom', name, description, grammar: tool.textInput.grammar, extra };
      // No custom tools here: one string parameter, which strict mode takes as it is.
      const degraded = textToolParameters(tool.textInput.grammar, schemaTargetOf(toolStrict));
      changes.push(...degraded.changes);
      return {
        kind: 'function',
        name,
        description,
        parameters: degraded.schema as JsonObject,
        strict: toolStrict,
        extra,
      };
    }
    const target = schemaTargetOf(toolStrict);
    const translateOptions = { toolName: tool.name, keepUndeclaredKeys: options.keepUndeclaredKeys };
    const translated = translateSchema(tool.inputSchema, target, translateOptions);
    if (translated.requiresRestore === true) {
      restorers.set(tool.name, (input) => restoreProviderInput(tool.inputSchema, input, target, translateOptions));
    }
    changes.push(...translated.changes);
    return {
      kind: 'function',
      name,
      description,
      parameters: translated.schema,
      // The dialect the schema was translated for: `openai` when strict was off, or would have narrowed.
      strict: translated.dialect === 'openai-strict',
      extra,
    };
  });
  return {
    definitions,
    changes,
    isTextTool: (name) => textTools.has(name),
    builtinTool: (kind) => builtins.get(kind),
    toProviderName: (name) => nameMap.toProvider(name),
    namingKey: nameMap.key,
    // A name the model invented is kept as is: the executor refuses unknown tools with an error result.
    fromProviderName: (providerName) => {
      try {
        return nameMap.fromProvider(providerName);
      } catch {
        return providerName;
      }
    },
    restoreInput: (name, input) => {
      const restore = restorers.get(name);
      return restore === undefined ? input : restore(input);
    },
  };
}

/**
 * A tool's raw OpenAI fields without `strict`: strict mode is the tool's `strict` option, and a raw
 * `strict: true` would bring back the narrowing the strict-off fallback avoided.
 */
function extraOf(options: JsonObject | undefined): JsonObject | undefined {
  if (options === undefined || !('strict' in options)) return options;
  const { strict: _ignored, ...rest } = options;
  return rest;
}

/**
 * Memoises a translation per catalogue array. The loop passes the same frozen `request.tools` array on every
 * turn, so translating once per array (held weakly) is enough.
 */
export function cacheByToolsArray<T>(
  build: (tools: readonly ToolDeclaration[]) => T,
): (tools: readonly ToolDeclaration[]) => T {
  const cache = new WeakMap<readonly ToolDeclaration[], T>();
  return (tools) => {
    const cached = cache.get(tools);
    if (cached !== undefined) return cached;
    const built = build(tools);
    cache.set(tools, built);
    return built;
  };
}

/**
 * The neutral tool choice with a named tool resolved to how the API names it: a function or custom tool by
 * its provider name, a tool declared with a native built-in type by that type.
 */
export type OpenAIToolChoiceIntent =
  | 'auto'
  | 'none'
  | 'required'
  | { readonly name: string; readonly custom: boolean }
  | { readonly builtin: BuiltinToolKind };

/** Resolves `request.toolChoice`; a named tool that is not in the catalogue is a configuration error. */
export function resolveToolChoice(
  request: ModelRequest,
  toolSet: OpenAIToolSet,
  provider: string,
): OpenAIToolChoiceIntent | undefined {
  const choice = request.toolChoice;
  if (choice === undefined || typeof choice === 'string') return choice;
  if (!request.tools.some((tool) => tool.name === choice.name)) {
    throw new OpenAIConfigurationError(
      provider,
      'unknown_tool_choice',
      'toolChoice',
      `toolChoice names "${choice.name}", which is not in the catalogue.`,
    );
  }
  const native = toolSet.definitions.find(
    (definition) => definition.kind === 'native' && definition.neutralName === choice.name,
  );
  if (native?.kind === 'native') return { builtin: native.builtin };
  const name = toolSet.toProviderName(choice.name);
  return {
    name,
    custom: toolSet.definitions.some((definition) => definition.kind === 'custom' && definition.name === name),
  };
}
