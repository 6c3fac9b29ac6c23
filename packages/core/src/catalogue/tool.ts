import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { TrustedOnly } from '../data-flow/data-flow-options.js';
import type { CallProtocol } from '../journal/call-protocol.js';
import type { JsonObject } from '../json/json.js';
import type { ToolResultContent } from '../messages/messages.js';
import type { ProviderOptions } from '../messages/provider-metadata.js';
import type { OutputTrust } from '../provenance/provenance-options.js';
import type { Session } from '../session/session.js';
import type { BuiltinTool } from './builtin-tool.js';
import type { TextInput } from './text-input.js';

/**
 * The marker for a tool that every session may call. Rights are deny-by-default: a tool names the right it
 * needs, and opening one to everybody has to be written down as `right: everySession`, never implied by
 * leaving the field out.
 */
export const everySession: unique symbol = Symbol.for('toolcircuit.everySession');

/** A right name the session must hold, or {@link everySession}. */
export type ToolRight = string | typeof everySession;

/** A JSON Schema object (not `true`/`false`), typed so that `as const` schemas infer the tool's input. */
export type JsonSchemaObject = Exclude<JSONSchema, boolean>;

/**
 * A schema from a library (Zod 4.2+, Valibot, ArkType…) that implements Standard Schema v1 (to validate)
 * and Standard JSON Schema v1 (to describe itself to the model).
 */
export interface StandardToolSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

export type ToolInputSchema = JsonSchemaObject | StandardToolSchema;

/**
 * The input type `run` receives: the Standard Schema's output type, or `FromSchema` of an `as const` JSON
 * Schema. A schema typed only as a wide object (loaded from a file) gives `Record<string, unknown>`.
 */
export type InferToolInput<S> = S extends StandardToolSchema
  ? StandardSchemaV1.InferOutput<S>
  : string extends keyof S
    ? Record<string, unknown>
    : S extends JSONSchema
      ? FromSchema<S>
      : unknown;

/** What `run` gets besides its input. `signal` aborts on the call's timeout and on the loop's abort. */
export interface ToolContext {
  readonly session: Session;
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly turn: number;
}

/**
 * A result the tool shapes itself, e.g. `{ isError: true, content: 'No case file with that number.' }`
 * to tell the model it asked for something that does not exist, without throwing.
 */
export interface ToolResultOutput {
  readonly isError: boolean;
  readonly content: ToolResultContent;
}

/**
 * What `run` may return. A string goes to the model as text; a {@link ToolResultOutput} as it is; any other
 * value must be JSON-serialisable and goes as its JSON text plus a `json` content part; nothing (undefined)
 * becomes a short "no output" text.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: `void` lets `run` be a function that returns nothing.
export type ToolOutput = string | ToolResultOutput | number | boolean | null | undefined | void | object;

export interface ToolDefinition<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly right: ToolRight;
  /** Irreversible calls need the session's human to confirm these exact arguments before they run. */
  readonly irreversible: boolean;
  /** Overrides the loop's `toolTimeoutMs` for this tool. */
  readonly timeoutMs?: number;
  /**
   * Whether the output may carry someone else's instructions. Absent: the loop's default, `untrusted`.
   * Once untrusted output is in a run, irreversible and sensitive calls need a fresh, informed confirmation.
   */
  readonly outputTrust?: OutputTrust;
  /** A reversible tool the application still wants confirmed once untrusted output is in the run. */
  readonly sensitive?: boolean;
  /**
   * Argument paths (JSON Pointers such as `/to`, `/iban`; a segment `*` for every element) whose value must be
   * found in a trusted source of the run (what the human wrote, the system text, a trusted tool's output, a
   * value vouched for), or a policy that names them per call. A call whose value is in none is refused, and
   * only the human vouching for the value lets it through (see `LoopOptions.dataFlow`).
   */
  readonly trustedOnly?: TrustedOnly;
  /** Wrap this tool's (untrusted) results in the run's spotlight marker in model requests. */
  readonly spotlight?: boolean;
  /**
   * Deferred: not shown to the model until its tool search finds it (see the catalogue's `toolSearch`).
   * Absent: the catalogue's `defer` option decides (not deferred by default).
   */
  readonly defer?: boolean;
  /** Per-tool strict schema adherence where the provider has it (OpenAI, Anthropic); absent: the adapter's default. */
  readonly strict?: boolean;
  /** Valid inputs shown to the model (Anthropic `input_examples`, else in the description); checked at registration. */
  readonly inputExamples?: readonly JsonObject[];
  /** Raw per-provider fields for this tool's wire entry, e.g. `{ anthropic: { cache_control: { type: 'ephemeral' } } }`. */
  readonly providerOptions?: ProviderOptions;
  /** How the tool search finds this tool when it is deferred: its namespace and other words for it. */
  readonly search?: ToolSearchHints;
  /**
   * Present on a text tool (see `defineTextTool`): its input is a string, checked by its grammar and its own
   * `validate`, and `inputSchema` is `{ type: 'string' }`.
   */
  readonly textInput?: TextInput;
  /** The provider-defined tool type this tool implements (see {@link BuiltinTool}). */
  readonly builtin?: BuiltinTool;
  /**
   * The wire protocol this tool is reached over (set by an importer, e.g. `@toolcircuit/mcp`): journaled with
   * each call (`JournalEntry.protocol`) and shown in traces.
   */
  readonly protocol?: CallProtocol;
  readonly run: (input: Input, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
}

/** What a deferred tool tells the tool search besides its name, description and schema. */
export interface ToolSearchHints {
  /**
   * The server, vendor or product the tool belongs to ("github", "stripe"). A query that names it ranks the
   * namespace's tools higher, and the model may restrict a search to it.
   */
  readonly namespace?: string;
  /** Words people use for what the tool does that its description does not ("text message" for an SMS tool). */
  readonly aliases?: readonly string[];
}

/**
 * Any tool, whatever its input type. `never` is the bottom of the input position, so every
 * `ToolDefinition<X>` is assignable to it under strict function types, without `any`.
 */
export type AnyToolDefinition = ToolDefinition<never>;

export interface ToolSpec<S extends ToolInputSchema> {
  readonly name: string;
  /** What the tool does and when to use it: the model chooses by this text. */
  readonly description: string;
  readonly inputSchema: S;
  readonly right: ToolRight;
  readonly irreversible?: boolean;
  readonly timeoutMs?: number;
  readonly outputTrust?: OutputTrust;
  readonly sensitive?: boolean;
  readonly trustedOnly?: TrustedOnly;
  readonly spotlight?: boolean;
  readonly defer?: boolean;
  readonly strict?: boolean;
  readonly inputExamples?: readonly JsonObject[];
  readonly providerOptions?: ProviderOptions;
  readonly search?: ToolSearchHints;
  /** Declare this tool with the provider's native type where there is one (`apply_patch`, `shell`, `computer`…). */
  readonly builtin?: BuiltinTool;
  readonly run: (input: InferToolInput<S>, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
}

/**
 * Defines a tool; its input type is inferred from the schema (no `as const` needed: the schema parameter is
 * `const`). Checks that need the whole catalogue (unique names, schema compilation) run in `createCatalogue`.
 */
export function defineTool<const S extends ToolInputSchema>(spec: ToolSpec<S>): ToolDefinition<InferToolInput<S>> {
  const definition: ToolDefinition<InferToolInput<S>> = {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    right: spec.right,
    irreversible: spec.irreversible ?? false,
    run: spec.run,
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    ...(spec.outputTrust === undefined ? {} : { outputTrust: spec.outputTrust }),
    ...(spec.sensitive === undefined ? {} : { sensitive: spec.sensitive }),
    ...(spec.trustedOnly === undefined ? {} : { trustedOnly: spec.trustedOnly }),
    ...(spec.spotlight === undefined ? {} : { spotlight: spec.spotlight }),
    ...(spec.defer === undefined ? {} : { defer: spec.defer }),
    ...(spec.strict === undefined ? {} : { strict: spec.strict }),
    ...(spec.inputExamples === undefined ? {} : { inputExamples: spec.inputExamples }),
    ...(spec.providerOptions === undefined ? {} : { providerOptions: spec.providerOptions }),
    ...(spec.search === undefined ? {} : { search: spec.search }),
    ...(spec.builtin === undefined ? {} : { builtin: spec.builtin }),
  };
  return Object.freeze(definition);
}

/** A deliberate error result, for `run` to return when the model asked for something impossible. */
export function toolError(content: ToolResultContent): ToolResultOutput {
  return { isError: true, content };
}

export function isStandardToolSchema(schema: unknown): schema is StandardSchemaV1 {
  if (schema === null || typeof schema !== 'object') return false;
  const standard = (schema as { '~standard'?: unknown })['~standard'];
  return (
    standard !== null &&
    typeof standard === 'object' &&
    typeof (standard as { validate?: unknown }).validate === 'function'
  );
}
