import type { JsonObject } from '@toolcircuit/core';
import type { SchemaChange } from './schema-change.js';
import type { SchemaTarget } from './schema-target.js';

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
  /**
   * The dialect `schema` is written in, which decides how the adapter declares this tool. The target itself,
   * except where the provider takes a looser dialect per tool and the target's own would lose valid inputs:
   * `openai-strict` → `openai` (send this function with `strict: false`; change `strict-off`) and `gemini` →
   * `gemini-json-schema` (declare it with `parametersJsonSchema`; change `json-schema-parameters`).
   */
  readonly dialect: SchemaTarget;
}

export interface TranslateOptions {
  /** Named in error messages, so a refusal says which tool of the catalogue failed. */
  readonly toolName?: string;
  /**
   * Default `true`: for `openai-strict` and `gemini`, a tool their own dialect would narrow (a change with
   * `narrows`), refuse, or leave with an `ambiguous-restore` is translated in the looser dialect the same API
   * accepts per tool (see `TranslatedSchema.dialect`), when that one keeps every valid input. `false` keeps
   * the target's dialect for every tool, narrowings included (logged with `narrows`). Restoring must use the
   * same setting (`restoreProviderInput`'s options).
   */
  readonly fallback?: boolean;
  /**
   * Default `false`: an object that omits `additionalProperties` is read as having no inputs beyond its
   * declared properties, so `openai-strict` closes it and `gemini` omits `parameters` for a tool that declares
   * none (change `closed-implicit-object`), and the tool keeps its target's dialect. `true` counts the keys such
   * an object leaves open as inputs too: closing it is then a narrowing (`closed-object`, `omitted-parameters`
   * with `narrows`), and by the per-tool fallback the tool goes with `strict: false` / `parametersJsonSchema`.
   * Objects that declare open keys (`additionalProperties: true` or a schema, `patternProperties`) are inputs
   * either way. Restoring must use the same setting (`restoreProviderInput`'s options).
   */
  readonly keepUndeclaredKeys?: boolean;
}
