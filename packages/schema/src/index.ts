// PLACEHOLDER API — being implemented (issue 7). Signatures are the contract adapters code against.
import type { JsonObject } from '@toolcircuit/core';

/** Which provider-side dialect a schema is translated into. */
export type SchemaTarget = 'anthropic' | 'openai' | 'openai-strict' | 'gemini' | 'gemini-json-schema';

export interface SchemaChange {
  /** JSON pointer into the ORIGINAL schema, e.g. `/properties/when/format`. */
  readonly path: string;
  readonly kind: string;
  readonly detail: string;
}

export interface TranslatedSchema {
  readonly schema: JsonObject;
  readonly changes: readonly SchemaChange[];
}

/** Translate a tool's input schema for one provider target. Throws a typed error when it cannot. */
export function translateSchema(schema: JsonObject, _target: SchemaTarget): TranslatedSchema {
  return { schema, changes: [] };
}

/** Maps tool names to names a provider accepts, and back. */
export interface ToolNameMap {
  toProvider(name: string): string;
  fromProvider(name: string): string;
  readonly changes: readonly SchemaChange[];
}

export function createToolNameMap(_names: readonly string[], _target: SchemaTarget): ToolNameMap {
  return { toProvider: (n) => n, fromProvider: (n) => n, changes: [] };
}

/** For `openai-strict`: undo the optional → nullable mapping so an omitted optional never reaches the tool as null. */
export function restoreStrictInput(_originalSchema: JsonObject, input: unknown): unknown {
  return input;
}
