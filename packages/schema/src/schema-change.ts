/**
 * What a translation did to the original schema, so the CLI can show the developer why the model sees
 * something different from the catalogue.
 * - `type-mapped`: a non-standard type name (BFCL `dict`, `float`, `any`…) was mapped to JSON Schema.
 * - `dropped`: a keyword was removed; the executor still enforces it (or it carried no meaning).
 * - `moved-to-description`: a keyword the provider rejects was removed and its value appended to the description.
 * - `rewritten`: the same constraint (or a looser one) expressed differently (`const` → one-value `enum`,
 *   `["x","null"]` → `nullable`, `oneOf` → `anyOf`, `exclusiveMinimum` → `minimum`, tuple → `items`).
 * - `inlined-ref`: a `$ref` was replaced by the schema it points to.
 * - `hoisted-ref`: a recursive `$ref` target was moved into `$defs` so the provider can follow it.
 * - `recursion-bounded`: a recursive schema was unrolled to a fixed depth; below it the value travels as JSON text.
 * - `json-encoded`: a value the provider cannot describe (any JSON, free-form object) travels as a JSON string,
 *   decoded by `restoreProviderInput` before validation.
 * - `made-nullable`: OpenAI strict: an optional property became required and nullable; `null` means "omitted".
 * - `required-with-default`: OpenAI strict: an optional property that accepts null and declares a `default` the
 *   original accepts was made required as it is (no null added for "omitted"): the model sends the default where
 *   it would have left the key out, which the schema declares to be the same input, and an explicit null stays null.
 * - `closed-object`: OpenAI strict: `additionalProperties: false` was forced on an object that DECLARES more keys
 *   (`additionalProperties: true` or a schema, `patternProperties`), or on any open object when the caller asked to
 *   keep undeclared keys (`keepUndeclaredKeys`). Carries `narrows`.
 * - `closed-implicit-object`: OpenAI strict closed an object that merely omits `additionalProperties`, or Gemini
 *   omitted `parameters` for a tool that declares none and says nothing of other keys. Keys nobody declared are
 *   not inputs a model can know of, so no declared input is lost (no `narrows`); `keepUndeclaredKeys: true`
 *   counts them as inputs instead (`closed-object` / `omitted-parameters` with `narrows`).
 * - `inferred-type`: a node without `type` got one from its structure keywords (`properties` ⇒ object…).
 * - `omitted-parameters`: Gemini: a tool without parameters declares none (the adapter omits `parameters`).
 * - `renamed`: a tool name the provider rejects was mapped to a valid one.
 * - `ambiguous-restore`: two branches of a union look alike on the provider side but restore differently,
 *   and nothing in the original tells them apart: restoring keeps the first branch the original accepts.
 * - `strict-off`: `openai-strict` would have narrowed this tool (or refused it, or left a restore ambiguous),
 *   so it is sent in the `openai` dialect with `strict: false`: OpenAI's `strict` is a per-function flag.
 *   Every valid input stays possible; the tool loses strict mode's guarantee that arguments match the schema
 *   (the executor's validation still refuses what does not).
 * - `json-schema-parameters`: `gemini` (`parameters`, the OpenAPI subset) would have narrowed this tool (or
 *   refused it, or left a restore ambiguous), so it is declared with `parametersJsonSchema` instead (the
 *   `gemini-json-schema` dialect): Gemini takes either field per function.
 * - `text-input-as-function`: a text tool (core's `defineTextTool`) on a provider without custom tools is
 *   declared as a function with one string parameter, `input`; its grammar, if any, is described there and
 *   checked by the executor, not by the provider (see `textToolParameters`).
 *
 * A change that leaves some valid inputs impossible to send carries `narrows`, saying which.
 */
export type SchemaChangeKind =
  | 'type-mapped'
  | 'dropped'
  | 'moved-to-description'
  | 'rewritten'
  | 'inlined-ref'
  | 'hoisted-ref'
  | 'recursion-bounded'
  | 'json-encoded'
  | 'made-nullable'
  | 'required-with-default'
  | 'closed-object'
  | 'closed-implicit-object'
  | 'inferred-type'
  | 'omitted-parameters'
  | 'renamed'
  | 'ambiguous-restore'
  | 'strict-off'
  | 'json-schema-parameters'
  | 'text-input-as-function';

export interface SchemaChange {
  /** JSON pointer into the ORIGINAL schema, e.g. `/properties/when/format` (`''` is the root). */
  readonly path: string;
  readonly kind: SchemaChangeKind;
  /** The keyword concerned, when there is one (`format`, `$ref`, `additionalProperties`…). */
  readonly keyword?: string;
  readonly detail: string;
  /**
   * Set when the provider side can no longer carry some inputs the original accepts (the provider's rules
   * force it, e.g. OpenAI strict closing an open object): says which inputs. Every other change keeps
   * every valid input possible (it re-spells or loosens).
   */
  readonly narrows?: string;
}
