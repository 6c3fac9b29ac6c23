import type { HostedTool, JsonObject, ToolChoice, ToolDeclaration } from '@toolcircuit/core';
import { descriptionWithExamples } from '@toolcircuit/core/provider';
import {
  createToolNameMap,
  restoreProviderInput,
  restoreTextInput,
  type SchemaChange,
  type ToolNameMap,
  textToolParameters,
  translateSchema,
} from '@toolcircuit/schema';
import type { GeminiFunctionDeclaration, GeminiHostedTool, GeminiTool, GeminiToolConfig } from './google-api.js';
import { GoogleConfigurationError } from './google-configuration-error.js';

/** `gemini`: `parameters` (OpenAPI 3.0 subset, both SDKs). `gemini-json-schema`: `parametersJsonSchema` (genai). */
export type GoogleSchemaTarget = 'gemini' | 'gemini-json-schema';

/** The catalogue translated once: declarations, the name map, and what the translation had to change. */
export interface PreparedGoogleDeclarations {
  readonly tools: GeminiTool[] | undefined;
  readonly nameMap: ToolNameMap;
  /** Schema and name changes, for diagnostics (a keyword moved into a description, a renamed tool…). */
  readonly changes: readonly SchemaChange[];
  /**
   * Arguments of a call → the shape of the tool's ORIGINAL schema (values the translation declared as
   * JSON text are parsed back). Identity for tools whose translation needs no restoring.
   */
  readonly restoreInput: (name: string, input: unknown) => unknown;
}

export interface PreparedGoogleTools {
  readonly tools: GeminiTool[] | undefined;
  readonly toolConfig: GeminiToolConfig | undefined;
  readonly nameMap: ToolNameMap;
  readonly restoreInput: (name: string, input: unknown) => unknown;
}

export interface GoogleToolPreparer {
  /** The translated declarations, computed once per `tools` array. */
  declarationsOf(tools: readonly ToolDeclaration[]): PreparedGoogleDeclarations;
  /** Declarations plus the `toolConfig` for this turn's tool choice. */
  prepare(tools: readonly ToolDeclaration[], toolChoice: ToolChoice | undefined): PreparedGoogleTools;
}

/**
 * Returns the tool preparation of one model. Declarations are translated once per `request.tools`
 * array (the loop passes the same frozen array every turn), held weakly so a dropped catalogue is freed.
 *
 * Gemini has no switch for "at most one call per turn", so `parallelToolCalls: false` cannot be
 * honoured here; the loop's own limits apply.
 */
export function createGoogleToolPreparer(target: GoogleSchemaTarget, keepUndeclaredKeys = false): GoogleToolPreparer {
  const cache = new WeakMap<readonly ToolDeclaration[], PreparedGoogleDeclarations>();
  const declarationsOf = (tools: readonly ToolDeclaration[]): PreparedGoogleDeclarations => {
    let prepared = cache.get(tools);
    if (prepared === undefined) {
      prepared = prepareGoogleDeclarations(tools, target, keepUndeclaredKeys);
      cache.set(tools, prepared);
    }
    return prepared;
  };
  return {
    declarationsOf,
    prepare(tools: readonly ToolDeclaration[], toolChoice: ToolChoice | undefined): PreparedGoogleTools {
      const prepared = declarationsOf(tools);
      return {
        tools: prepared.tools,
        toolConfig: prepared.tools === undefined ? undefined : toToolConfig(toolChoice, prepared.nameMap, tools),
        nameMap: prepared.nameMap,
        restoreInput: prepared.restoreInput,
      };
    },
  };
}

export function prepareGoogleDeclarations(
  tools: readonly ToolDeclaration[],
  target: GoogleSchemaTarget,
  keepUndeclaredKeys = false,
): PreparedGoogleDeclarations {
  const nameMap = createToolNameMap(
    tools.map((tool) => tool.name),
    target,
  );
  const changes: SchemaChange[] = [...nameMap.changes];
  const needsRestore = new Map<string, JsonObject>();
  const textTools = new Set<string>();
  const functionDeclarations = tools.map((tool): GeminiFunctionDeclaration => {
    if (tool.textInput !== undefined) {
      // Gemini has no custom tools: a function with one string parameter, whose value is the text.
      textTools.add(tool.name);
      const degraded = textToolParameters(tool.textInput.grammar, target);
      changes.push(...degraded.changes);
      const field = target === 'gemini' ? 'parameters' : 'parametersJsonSchema';
      const declaration: GeminiFunctionDeclaration = {
        name: nameMap.toProvider(tool.name),
        [field]: degraded.schema as JsonObject,
      };
      const description = descriptionWithExamples(tool);
      if (description !== '') declaration.description = description;
      const own = tool.providerOptions?.['google'];
      return own === undefined ? declaration : ({ ...declaration, ...own } as GeminiFunctionDeclaration);
    }
    const translated = translateSchema(tool.inputSchema, target, { toolName: tool.name, keepUndeclaredKeys });
    changes.push(...translated.changes);
    if (translated.requiresRestore === true) needsRestore.set(tool.name, tool.inputSchema);
    const declaration: GeminiFunctionDeclaration = { name: nameMap.toProvider(tool.name) };
    const description = descriptionWithExamples(tool);
    if (description !== '') declaration.description = description;
    // Gemini rejects an object schema without properties ("parameters.properties: should be non-empty
    // for OBJECT type"), so a tool without parameters must omit them.
    if (translated.omitParameters !== true && !declaresNoParameters(translated.schema)) {
      // Per function: a tool the `gemini` dialect would narrow (an open tool without declared parameters,
      // a union it could not restore) is translated for JSON Schema and declared with parametersJsonSchema
      // (change `json-schema-parameters`); the two fields are mutually exclusive.
      if (translated.dialect === 'gemini') declaration.parameters = translated.schema;
      else declaration.parametersJsonSchema = translated.schema;
    }
    // The tool's own Gemini fields (e.g. `behavior`) go over the adapter's; Gemini has no `strict`.
    const own = tool.providerOptions?.['google'];
    return own === undefined ? declaration : ({ ...declaration, ...own } as GeminiFunctionDeclaration);
  });
  return {
    tools: functionDeclarations.length === 0 ? undefined : [{ functionDeclarations }],
    nameMap,
    changes,
    restoreInput: (name, input) => {
      if (textTools.has(name)) {
        // Anything but `{ input: "<text>" }` stays as it came: the executor then says the tool takes text.
        const restored = restoreTextInput(input);
        return restored.ok ? restored.text : input;
      }
      const original = needsRestore.get(name);
      return original === undefined ? input : restoreProviderInput(original, input, target, { keepUndeclaredKeys });
    },
  };
}

/**
 * Also for `gemini-json-schema`, where the translator does not decide it: a closed object with nothing in it,
 * which only `{}` satisfies. An open one (no `additionalProperties: false`) still accepts undeclared keys, so
 * it is declared.
 */
function declaresNoParameters(schema: JsonObject): boolean {
  const properties = schema['properties'];
  const hasProperties =
    typeof properties === 'object' &&
    properties !== null &&
    !Array.isArray(properties) &&
    Object.keys(properties).length > 0;
  const closed = schema['additionalProperties'] === false && !('patternProperties' in schema);
  return !hasProperties && closed && !('anyOf' in schema) && !('oneOf' in schema) && !('allOf' in schema);
}

function toToolConfig(
  toolChoice: ToolChoice | undefined,
  nameMap: ToolNameMap,
  tools: readonly ToolDeclaration[],
): GeminiToolConfig | undefined {
  if (toolChoice === undefined) return undefined;
  if (toolChoice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (toolChoice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (toolChoice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (!tools.some((tool) => tool.name === toolChoice.name)) {
    throw new GoogleConfigurationError(
      'unknown_tool_choice',
      'toolChoice',
      `google: toolChoice names "${toolChoice.name}", which is not among the declared tools (${tools.map((tool) => tool.name).join(', ')}).`,
    );
  }
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [nameMap.toProvider(toolChoice.name)] } };
}

/**
 * A neutral hosted tool as Gemini names it: `googleSearch` and `codeExecution` (neither takes the neutral
 * options: `maxUses` and the domain lists are not sent). A `provider` tool only when it has a `google`
 * entry, which is the whole tool (e.g. `{ urlContext: {} }`); `providerOptions.google` of a neutral one
 * goes over the mapped tool.
 *
 * @see https://ai.google.dev/gemini-api/docs/google-search
 */
export function googleHostedTool(tool: HostedTool): GeminiHostedTool[] {
  const own = tool.providerOptions?.['google'];
  if (tool.kind === 'provider') return own === undefined ? [] : [{ ...own } as GeminiHostedTool];
  const mapped: GeminiHostedTool = tool.kind === 'web_search' ? { googleSearch: {} } : { codeExecution: {} };
  return [{ ...mapped, ...own } as GeminiHostedTool];
}
