import { pointerSegments } from '../data-flow/argument-paths.js';
import { DuplicateToolNameError } from '../errors/duplicate-tool-name-error.js';
import { InvalidToolDefinitionError } from '../errors/invalid-tool-definition-error.js';
import { InvalidToolNameError } from '../errors/invalid-tool-name-error.js';
import { SchemaCompileError } from '../errors/schema-compile-error.js';
import type { JsonObject } from '../json/json.js';
import type { ToolDeclaration } from '../messages/model.js';
import { checkedBuiltin } from './builtin-tool.js';
import { type PreparedSchema, prepareSchema, type SchemaCompiler } from './prepare-schema.js';
import { providerFeaturesOf } from './provider-features.js';
import { type CatalogueOptions, isRefusal, type RefusedTool } from './refused-tool.js';
import { TEXT_INPUT_SCHEMA, textInputValidator } from './text-tool.js';
import { type AnyToolDefinition, everySession, isStandardToolSchema } from './tool.js';
import { type ToolSearch, toolSearchDefinition } from './tool-search.js';
import { createSchemaCompiler, type InputValidation, type InputValidator } from './validate-input.js';

/** One registered tool: its definition, what the model is shown, and its compiled validator. */
export interface CatalogueEntry {
  readonly definition: AnyToolDefinition;
  readonly declaration: ToolDeclaration;
  readonly validate: InputValidator;
}

export interface Catalogue {
  /**
   * What the model is shown, in registration order. The same frozen array on every turn: adapters may cache
   * their translation keyed by its identity. With deferred tools: the tools not deferred, then the search tool.
   */
  readonly declarations: readonly ToolDeclaration[];
  /** The registered tools, deferred ones included (not the search tool, which the catalogue adds). */
  readonly names: readonly string[];
  /** A registered tool, or the search tool by its name. */
  get(name: string): CatalogueEntry | undefined;
  /** Present when some tools are deferred: the search that loads them (see `defer` on a tool). */
  readonly toolSearch?: ToolSearch;
  /** Checks an input against a tool's schema (an unknown tool is reported as such, not thrown). */
  validate(name: string, input: unknown): Promise<InputValidation>;
}

/** A catalogue of the valid tools of a list, and the tools it refused with their reasons. */
export interface LenientCatalogue extends Catalogue {
  readonly refused: readonly RefusedTool[];
}

/**
 * Names no provider accepts. Stricter per-provider rules (Gemini and OpenAI: ≤ 64 characters; Anthropic
 * and OpenAI: no "."; Gemini: no leading digit) are NOT applied here: the name mapping layer renames such
 * tools for the provider that needs it, so the catalogue keeps the name the developer chose.
 */
const NAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;
const MAX_NAME_LENGTH = 128;

/**
 * Builds a catalogue. Everything that can be wrong with a tool is found here, once, and thrown as a typed
 * `configuration` error that names the tool and the fix: a catalogue that exists is one the loop can use.
 */
export function createCatalogue(
  tools: readonly AnyToolDefinition[],
  options?: CatalogueOptions & { readonly mode?: 'strict' },
): Catalogue;
/** Lenient mode, for importing a whole tool list: loads the valid tools, lists the refused ones with their errors. */
export function createCatalogue(
  tools: readonly AnyToolDefinition[],
  options: CatalogueOptions & { readonly mode: 'lenient' },
): LenientCatalogue;
export function createCatalogue(
  tools: readonly AnyToolDefinition[],
  options: CatalogueOptions = {},
): Catalogue | LenientCatalogue {
  const compile = createSchemaCompiler();
  const entries = new Map<string, CatalogueEntry>();
  const refused: RefusedTool[] = [];
  const deferred = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    try {
      const name = checkName(tool);
      if (entries.has(name)) throw new DuplicateToolNameError(name);
      checkDefinition(tool);
      const { schema, validate } = prepareToolSchema(tool, compile, options.normalizeSchema);
      const declaration: ToolDeclaration = Object.freeze({
        name,
        description: tool.description,
        inputSchema: schema,
        ...providerFeaturesOf(tool, validate),
        ...toolKindOf(tool),
      });
      entries.set(name, Object.freeze({ definition: tool, declaration, validate }));
      if (tool.defer ?? options.defer === true) deferred.add(name);
    } catch (error) {
      if (options.mode !== 'lenient' || !isRefusal(error)) throw error;
      refused.push(Object.freeze({ index, name: String((tool as { name?: unknown } | undefined)?.name), error }));
    }
  }
  const search = toolSearchOf(entries, deferred, options, compile);
  const shown = [...entries.values()].filter((entry) => !deferred.has(entry.declaration.name));
  const declarations = Object.freeze(
    [...shown, ...(search === undefined ? [] : [search.entry])].map((entry) => entry.declaration),
  );
  const names = Object.freeze([...entries.keys()]);
  const get = (name: string): CatalogueEntry | undefined =>
    entries.get(name) ?? (name === search?.entry.declaration.name ? search.entry : undefined);
  return Object.freeze({
    ...(options.mode === 'lenient' ? { refused: Object.freeze(refused) } : {}),
    declarations,
    names,
    get,
    ...(search === undefined ? {} : { toolSearch: search.toolSearch }),
    validate: async (name: string, input: unknown): Promise<InputValidation> => {
      const entry = get(name);
      if (entry === undefined) {
        return { ok: false, message: `There is no tool named "${name.slice(0, 80)}".`, issues: [] };
      }
      return entry.validate(input);
    },
  });
}

/** The search tool and its index, when some tools are deferred. */
function toolSearchOf(
  entries: ReadonlyMap<string, CatalogueEntry>,
  deferred: ReadonlySet<string>,
  options: CatalogueOptions,
  compile: SchemaCompiler,
): { entry: CatalogueEntry; toolSearch: ToolSearch } | undefined {
  if (deferred.size === 0) return undefined;
  const declarations = [...deferred].map((name) => {
    const { declaration, definition } = entries.get(name) as CatalogueEntry;
    return definition.search === undefined ? declaration : { ...declaration, ...definition.search };
  });
  const { definition, search } = toolSearchDefinition(Object.freeze(declarations), options.toolSearch);
  checkName(definition as AnyToolDefinition);
  if (entries.has(definition.name)) {
    throw new InvalidToolDefinitionError(
      definition.name,
      'it has the name of the search tool the catalogue adds for its deferred tools; rename the tool, or give the ' +
        'search another name with the `toolSearch.name` option.',
    );
  }
  const { schema, validate } = prepareToolSchema(definition as AnyToolDefinition, compile);
  const declaration: ToolDeclaration = Object.freeze({
    name: definition.name,
    description: definition.description,
    inputSchema: schema,
  });
  const entry: CatalogueEntry = Object.freeze({ definition: definition as AnyToolDefinition, declaration, validate });
  return { entry, toolSearch: Object.freeze({ ...search, declaration }) };
}

function checkName(tool: AnyToolDefinition): string {
  const name: unknown = tool.name;
  if (typeof name !== 'string') {
    throw new InvalidToolDefinitionError(String(name), 'its `name` is not a string; give every tool a string name.');
  }
  if (name.length === 0) throw new InvalidToolNameError(name, 'it is empty');
  if (name.length > MAX_NAME_LENGTH) {
    throw new InvalidToolNameError(name, `it has ${name.length} characters, more than ${MAX_NAME_LENGTH}`);
  }
  if (!NAME_CHARACTERS.test(name)) {
    const bad = [...new Set([...name].filter((character) => !NAME_CHARACTERS.test(character)))];
    throw new InvalidToolNameError(name, `it contains ${bad.map((character) => JSON.stringify(character)).join(', ')}`);
  }
  return name;
}

function validPointers(paths: unknown): boolean {
  return Array.isArray(paths) && paths.every((path) => pointerSegments(path) !== undefined);
}

function checkDefinition(tool: AnyToolDefinition): void {
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw new InvalidToolDefinitionError(
      tool.name,
      `\`description\` must be a non-empty string (got ${typeof tool.description === 'string' ? 'an empty one' : typeof tool.description}). The model chooses tools by their description: say what the tool does and when to use it.`,
    );
  }
  const right: unknown = tool.right;
  if (right !== everySession && (typeof right !== 'string' || right === '')) {
    throw new InvalidToolDefinitionError(
      tool.name,
      'it states no `right`. Rights are deny-by-default: set `right` to the name of the right a session must hold ' +
        '(e.g. "cases:read"), or to `everySession` to open the tool to every session on purpose.',
    );
  }
  if (typeof tool.irreversible !== 'boolean') {
    throw new InvalidToolDefinitionError(
      tool.name,
      '`irreversible` must be true or false (use `defineTool`, which defaults it to false).',
    );
  }
  if (typeof tool.run !== 'function') {
    throw new InvalidToolDefinitionError(tool.name, '`run` must be a function `(input, context) => output`.');
  }
  const timeout: unknown = tool.timeoutMs;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)) {
    throw new InvalidToolDefinitionError(
      tool.name,
      '`timeoutMs` must be a positive number of milliseconds, or left out.',
    );
  }
  const defer: unknown = tool.defer;
  if (defer !== undefined && typeof defer !== 'boolean') {
    throw new InvalidToolDefinitionError(tool.name, '`defer` must be true or false, or left out.');
  }
  checkSearchHints(tool);
  const trustedOnly: unknown = tool.trustedOnly;
  if (trustedOnly !== undefined && typeof trustedOnly !== 'function' && !validPointers(trustedOnly)) {
    throw new InvalidToolDefinitionError(
      tool.name,
      '`trustedOnly` must be a list of JSON Pointers into the input (e.g. ["/to", "/iban"]; a segment "*" for ' +
        'every element), or a function that returns them per call.',
    );
  }
  const trust: unknown = tool.outputTrust;
  if (trust !== undefined && trust !== 'trusted' && trust !== 'untrusted') {
    throw new InvalidToolDefinitionError(
      tool.name,
      '`outputTrust` must be "trusted" or "untrusted", or left out (untrusted by default).',
    );
  }
}

function checkSearchHints(tool: AnyToolDefinition): void {
  const hints: unknown = tool.search;
  if (hints === undefined) return;
  const fix = '`search` must be `{ namespace?: string, aliases?: string[] }`, or left out';
  if (hints === null || typeof hints !== 'object' || Array.isArray(hints)) {
    throw new InvalidToolDefinitionError(tool.name, `${fix}.`);
  }
  const { namespace, aliases } = hints as { namespace?: unknown; aliases?: unknown };
  if (namespace !== undefined && typeof namespace !== 'string') {
    throw new InvalidToolDefinitionError(tool.name, `${fix}: its namespace is not a string.`);
  }
  if (aliases !== undefined && (!Array.isArray(aliases) || aliases.some((alias) => typeof alias !== 'string'))) {
    throw new InvalidToolDefinitionError(tool.name, `${fix}: its aliases are not a list of strings.`);
  }
}

/** What a declaration says about the tool's kind: a text tool's grammar, the built-in type it implements. */
function toolKindOf(tool: AnyToolDefinition): Pick<ToolDeclaration, 'textInput' | 'builtin'> {
  const builtin = checkedBuiltin(tool.name, tool.builtin);
  if (tool.textInput !== undefined && builtin !== undefined) {
    throw new InvalidToolDefinitionError(
      tool.name,
      "a text tool cannot also be a `builtin` tool: built-in types take the provider's own arguments.",
    );
  }
  const grammar = tool.textInput?.grammar;
  return {
    ...(tool.textInput === undefined ? {} : { textInput: Object.freeze(grammar === undefined ? {} : { grammar }) }),
    ...(builtin === undefined ? {} : { builtin }),
  };
}

function prepareToolSchema(
  tool: AnyToolDefinition,
  compile: SchemaCompiler,
  normalize?: CatalogueOptions['normalizeSchema'],
): PreparedSchema {
  // A text tool's input is a string: its check is its grammar and its own `validate`, not a JSON Schema.
  if (tool.textInput !== undefined) {
    return { schema: TEXT_INPUT_SCHEMA, validate: textInputValidator(tool.name, tool.textInput) };
  }
  return prepareSchema(tool.name, normalizeSource(tool, normalize), compile);
}

/** The schema through the catalogue's `normalizeSchema`, when it has one and the schema is a JSON object. */
function normalizeSource(tool: AnyToolDefinition, normalize: CatalogueOptions['normalizeSchema']): unknown {
  const source: unknown = tool.inputSchema;
  if (normalize === undefined || isStandardToolSchema(source)) return source;
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return source;
  try {
    return normalize(source as JsonObject, tool.name);
  } catch (error) {
    throw new SchemaCompileError(
      tool.name,
      `the catalogue's normalizeSchema refused it (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}
