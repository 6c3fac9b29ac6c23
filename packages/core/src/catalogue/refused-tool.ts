import type { ToolcircuitError } from '../errors/toolcircuit-error.js';
import type { JsonObject } from '../json/json.js';
import type { ToolSearchOptions } from './tool-search.js';

/** `strict` (the default): the first invalid tool throws. `lenient`: valid tools load, invalid ones are listed. */
export type CatalogueMode = 'strict' | 'lenient';

export interface CatalogueOptions {
  readonly mode?: CatalogueMode;
  /**
   * Defers every tool that does not say otherwise (`defer: false` on a tool keeps it shown). Deferred tools
   * are hidden from the model until its tool search loads them. Default `false`.
   */
  readonly defer?: boolean;
  /** The search tool the model gets when some tools are deferred. */
  readonly toolSearch?: ToolSearchOptions;
  /**
   * Rewrites each JSON input schema before it is checked, shown and compiled: for tool lists written in a
   * dialect of their own (BFCL's `type: "dict"` and `float`, ToolBench's `optional` lists…). Pass
   * `normalizeToolSchema` from `@toolcircuit/schema`, the rewrite `toolcircuit lint` and `convert` apply.
   * Not applied to Standard Schema tools (Zod, Valibot…), which describe themselves.
   */
  readonly normalizeSchema?: (schema: JsonObject, toolName: string) => JsonObject;
}

/** A tool `createCatalogue` did not load in lenient mode, with the same typed error strict mode throws. */
export interface RefusedTool {
  /** Position in the list given to `createCatalogue`. */
  readonly index: number;
  /** The tool's name as given (`String(name)` when it was not a string). */
  readonly name: string;
  readonly error: ToolcircuitError;
}

/** Only setup errors are collected; anything else (a bug) still throws in lenient mode. */
export function isRefusal(error: unknown): error is ToolcircuitError {
  return (
    error instanceof Error &&
    (error as Partial<ToolcircuitError>).kind === 'configuration' &&
    typeof (error as Partial<ToolcircuitError>).code === 'string'
  );
}
