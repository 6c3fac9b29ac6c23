import type { JsonObject, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { descriptionWithExamples } from '@toolcircuit/core/provider';
import {
  createToolNameMap,
  restoreProviderInput,
  type SchemaChange,
  type SchemaTarget,
  translateSchema,
} from '@toolcircuit/schema';
import { OpenAIConfigurationError } from './openai-configuration-error.js';
import type { ToolCallContext } from './openai-shared-tool-calls.js';

/** One catalogue tool as OpenAI will see it, before the API-specific wrapping. */
export interface OpenAIToolDefinition {
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
): OpenAIToolSet {
  const nameMap = createToolNameMap(
    tools.map((tool) => tool.name),
    schemaTargetOf(options.strict),
  );
  // Per tool, how its calls' arguments are restored: by the target and options it was translated with, so a
  // tool whose own `strict` differs from the model's is restored by its own dialect.
  const restorers = new Map<string, (input: unknown) => unknown>();
  const changes: SchemaChange[] = [...nameMap.changes];
  const definitions = tools.map((tool) => {
    const target = schemaTargetOf(tool.strict ?? options.strict);
    const translateOptions = { toolName: tool.name, keepUndeclaredKeys: options.keepUndeclaredKeys };
    const translated = translateSchema(tool.inputSchema, target, translateOptions);
    if (translated.requiresRestore === true) {
      restorers.set(tool.name, (input) => restoreProviderInput(tool.inputSchema, input, target, translateOptions));
    }
    changes.push(...translated.changes);
    return {
      name: nameMap.toProvider(tool.name),
      description: descriptionWithExamples(tool),
      parameters: translated.schema,
      // The dialect the schema was translated for: `openai` when strict was off, or would have narrowed.
      strict: translated.dialect === 'openai-strict',
      extra: extraOf(tool.providerOptions?.[provider]),
    };
  });
  return {
    definitions,
    changes,
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

/** The neutral tool choice with a named tool resolved to its provider name. */
export type OpenAIToolChoiceIntent = 'auto' | 'none' | 'required' | { readonly name: string };

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
  return { name: toolSet.toProviderName(choice.name) };
}
