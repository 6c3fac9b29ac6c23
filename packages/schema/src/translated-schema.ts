import type { JsonObject } from '@toolcircuit/core';
import type { SchemaChange } from './schema-change.js';

export interface TranslatedSchema {
  /** The schema to send to the provider. Never the caller's object: always a fresh copy. */
  readonly schema: JsonObject;
  readonly changes: readonly SchemaChange[];
  /**
   * Gemini only: the tool takes no parameters and the adapter must OMIT `parameters` (Gemini rejects an
   * OBJECT with empty `properties`). `schema` is then `{ type: 'object', properties: {} }`, never to be sent.
   */
  readonly omitParameters?: boolean;
  /**
   * The provider-side value differs in shape from the original (nulls for omitted optionals, JSON-encoded
   * values): the adapter must pass the model's arguments through `restoreProviderInput` before the executor
   * sees them. Calling it when this is false is harmless (it returns the input unchanged).
   */
  readonly requiresRestore?: boolean;
}

export interface TranslateOptions {
  /** Named in error messages, so a refusal says which tool of the catalogue failed. */
  readonly toolName?: string;
}
