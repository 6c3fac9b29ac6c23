import type { BuiltinTool } from '../catalogue/builtin-tool.js';
import type { HostedTool } from '../catalogue/hosted-tool.js';
import type { TextGrammar } from '../catalogue/text-input.js';
import type { JsonObject } from '../json/json.js';
import type { Message } from './messages.js';
import type { ModelTurn } from './model-turn.js';
import type { ProviderOptions } from './provider-metadata.js';
import type { StreamEvent } from './stream-events.js';

/**
 * A tool as a model sees it: the only things a model chooses by. `inputSchema` is always a JSON Schema
 * object here (Zod / Standard Schema tools are converted once, when the catalogue is built).
 */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /**
   * The tool's preference for strict schema adherence (OpenAI `strict`, Anthropic `strict`); absent: the
   * adapter's default. Gemini has no such switch.
   */
  readonly strict?: boolean;
  /** Valid example inputs: Anthropic `input_examples`; folded into the description elsewhere. */
  readonly inputExamples?: readonly JsonObject[];
  /** Raw fields per provider merged into this tool's wire entry (e.g. `{ anthropic: { cache_control } }`). */
  readonly providerOptions?: ProviderOptions;
  /**
   * Present on a text tool: its input is a string (`inputSchema` is `{ type: 'string' }`). Adapters declare it
   * as the provider's custom tool (with the grammar) where there is one, else as a function with one string
   * parameter (see `@toolcircuit/schema`'s `textToolParameters`), and hand the call's text over as `input`.
   */
  readonly textInput?: { readonly grammar?: TextGrammar };
  /** The provider-defined tool type this catalogue tool implements: declared with the native type where one exists. */
  readonly builtin?: BuiltinTool;
}

/** The deferred tools not loaded yet, for an adapter that uses its provider's own tool search. */
export interface DeferredTools {
  /** The name of the neutral search tool in the request's `tools`. */
  readonly searchTool: string;
  readonly tools: readonly ToolDeclaration[];
}

/**
 * Clearing of old tool results done by the provider itself (Anthropic context editing), asked for by a context
 * policy with `native: true` when the model says it can (`Model.clearsToolResults`). The request carries every
 * result whole; the provider clears before the model reads it.
 */
export interface ContextEditing {
  readonly clearToolResults: {
    /** Clear once the request's input exceeds this many tokens. */
    readonly triggerTokens: number;
    /** The most recent tool uses (call and result) kept whole. */
    readonly keepToolUses: number;
    /** Clear at least this many tokens when clearing at all (a prompt cache is written again after each). */
    readonly clearAtLeastTokens: number;
    /** Tools whose uses are never cleared. */
    readonly excludeTools?: readonly string[];
  };
}

/**
 * The structured answer a run asks for (the loop's `output` option), sent on every request of the run: the
 * model may still call tools, and its answer without calls must be one JSON object valid under `schema`.
 * Adapters ask for it in the provider's native structured mode where that combines with the request's tools,
 * else through an answer tool named `name` whose input is `schema` (never run: its input is the answer);
 * either way the answer comes back as the turn's text, holding the JSON. `toolChoice: 'none'` with an output
 * means "answer now": no tool call, only the structured answer.
 */
export interface OutputFormat {
  /** Names the answer on the wire (OpenAI `json_schema.name`, the answer tool's name). */
  readonly name: string;
  readonly description?: string;
  /** The answer's JSON Schema (a Standard Schema already converted), root `type: "object"`. */
  readonly schema: JsonObject;
  /** Ask for strict adherence where the provider has the switch (OpenAI `strict`). */
  readonly strict: boolean;
}

/** Which tools the model may or must call this turn. */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly type: 'tool'; readonly name: string };

export interface ModelRequest {
  /** System instructions. Adapters place them where their provider wants them. */
  readonly system?: string;
  readonly messages: readonly Message[];
  /**
   * The declarations of the tools active at this step (the whole catalogue unless `activeTools` or
   * `prepareStep` narrowed it). The loop passes the same frozen array for the same set of tools, so an
   * adapter may cache its translation keyed by this array's identity instead of re-translating every step.
   */
  readonly tools: readonly ToolDeclaration[];
  readonly toolChoice?: ToolChoice;
  /** The run's structured answer, when it asks for one (see {@link OutputFormat}). */
  readonly output?: OutputFormat;
  /**
   * Present when the catalogue defers tools and the step offers the search tool. `tools` already holds the
   * neutral search tool and the loaded tools the step's plan allows, which is all an adapter needs; one that
   * uses its provider's own tool search instead removes `deferredTools.searchTool` from `tools`, declares
   * these as deferred, and reports what the provider loaded in the turn's `loadedTools`. The loop passes the
   * same object as long as `tools` is the same array, so adapters may cache on it.
   */
  readonly deferredTools?: DeferredTools;
  /** Tools the provider runs itself (web search, code execution…), after the catalogue's tools. */
  readonly hostedTools?: readonly HostedTool[];
  /**
   * Mark the tool list as a cache breakpoint: Anthropic `cache_control` on the last tool. OpenAI and Gemini
   * cache stable prefixes by themselves (see the adapters' READMEs); they ignore it.
   */
  readonly cacheTools?: boolean;
  /** `false` asks the provider for at most one call per turn, where it supports that switch. */
  readonly parallelToolCalls?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly providerOptions?: ProviderOptions;
  /** Present only for a model whose `clearsToolResults` is true; see {@link ContextEditing}. */
  readonly contextEditing?: ContextEditing;
  readonly signal?: AbortSignal;
}

/**
 * What every provider adapter implements. It only translates: neutral request → provider call through the
 * official SDK → neutral turn. It never runs a tool.
 */
export interface Model {
  /** Adapter family, also the key of its entries in provider bags: `anthropic`, `openai`, `google`… */
  readonly provider: string;
  readonly modelId: string;
  /**
   * True when this model can clear old tool results on the provider's side when a request carries
   * `contextEditing` (Anthropic context editing on the models that support it). Absent: it cannot.
   */
  readonly clearsToolResults?: boolean;
  generate(request: ModelRequest): Promise<ModelTurn>;
  /** Present on adapters that stream; yields neutral events ending with exactly one `turn-end` or `error`. */
  stream?(request: ModelRequest): AsyncIterable<StreamEvent>;
}
