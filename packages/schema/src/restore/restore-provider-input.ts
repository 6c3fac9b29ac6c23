import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { isJsonObject, jsonTypeOf } from '../json-utils.js';
import type { SchemaTarget } from '../schema-target.js';
import type { BranchPlan, RestorePlan } from '../translate/restore-plan.js';
import { translateWithPlan } from '../translate/translate-schema.js';
import type { TranslateOptions } from '../translated-schema.js';

/** `fallback` and `keepUndeclaredKeys` as given to `translateSchema` for this tool (defaults `true`, `false`). */
export type RestoreOptions = Pick<TranslateOptions, 'fallback' | 'keepUndeclaredKeys'>;

/**
 * Turns the arguments a model produced against a translated schema back into the shape of the ORIGINAL
 * schema, before the executor validates them:
 * - OpenAI strict: `null` for a property that was optional in the original means "omitted": the key is
 *   removed, so a null never reaches the tool for an optional it did not send. (An optional property that
 *   also accepts null is restored as omitted too: strict mode cannot tell the two apart.)
 * - Values declared as JSON text (any-JSON values, free-form objects, recursion beyond the unrolled depth)
 *   are parsed back. Text that does not parse is left as it is, so the executor rejects it by name.
 * Anything the plan does not recognise passes through unchanged; the executor's validation decides.
 * A tool sent in a looser dialect (`TranslatedSchema.dialect`) is restored by that dialect's rules.
 */
export function restoreProviderInput(
  originalSchema: JsonObject,
  input: unknown,
  target: SchemaTarget,
  options: RestoreOptions = {},
): unknown {
  let plan: RestorePlan;
  try {
    // The same translation the adapter declared (per-tool fallback included), so the plan matches its dialect.
    plan = translateWithPlan(originalSchema, target, options).plan;
  } catch {
    // A refused schema is never declared to the provider, so there is nothing to undo.
    return input;
  }
  return restore(plan, input);
}

/** For `openai-strict`: undo the optional → nullable mapping so an omitted optional never reaches the tool as null. */
export function restoreStrictInput(originalSchema: JsonObject, input: unknown, options: RestoreOptions = {}): unknown {
  return restoreProviderInput(originalSchema, input, 'openai-strict', options);
}

function restore(plan: RestorePlan, value: unknown): unknown {
  switch (plan.kind) {
    case 'same':
      return value;
    case 'lazy':
      return restore(plan.resolve(), value);
    case 'json':
      return decodeJson(plan.wrapped && isJsonObject(value) ? value.json : value, value);
    case 'object': {
      if (!isJsonObject(value)) return value;
      const entries: [string, unknown][] = [];
      for (const [key, item] of Object.entries(value)) {
        const property = plan.properties.get(key);
        if (property === undefined) entries.push([key, item]);
        else if (!(item === null && property.nullMeansOmitted)) entries.push([key, restore(property.plan, item)]);
      }
      // fromEntries defines own properties, so a key named "__proto__" stays data, never a prototype.
      return Object.fromEntries(entries);
    }
    case 'array':
      if (!Array.isArray(value)) return value;
      return value.map((item, index) => restore(plan.prefix[index] ?? plan.items, item));
    case 'any-of':
      return restoreUnion(plan.branches, value);
  }
}

function decodeJson(text: unknown, original: unknown): unknown {
  if (typeof text !== 'string') return original;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return original;
  }
}

/**
 * Restores a value under the union branch it belongs to: among the branches whose provider-side JSON type
 * matches, the first whose ORIGINAL schema accepts the restored value. When no branch's original accepts
 * it (the model sent something invalid), the branch whose declared keys the value carries, so the
 * executor's refusal names the real problem.
 */
function restoreUnion(branches: readonly BranchPlan[], value: unknown): unknown {
  const type = value === undefined ? undefined : jsonTypeOf(value as JsonValue);
  const matching = branches.filter(
    (branch) => type !== undefined && (branch.types.has(type) || (type === 'integer' && branch.types.has('number'))),
  );
  if (matching.length === 0) return value;
  if (matching.length === 1) return restore((matching[0] as BranchPlan).plan, value);
  for (const branch of matching) {
    if (branch.accepts === undefined) continue;
    const restored = restore(branch.plan, value);
    if (branch.accepts(restored)) return restored;
  }
  const fallback = byKeys(matching, value) ?? (matching[0] as BranchPlan);
  return restore(fallback.plan, value);
}

function byKeys(matching: readonly BranchPlan[], value: unknown): BranchPlan | undefined {
  if (!isJsonObject(value)) return undefined;
  const keys = Object.keys(value);
  const exact = matching.find(
    (branch) =>
      branch.keys !== undefined && branch.keys.size === keys.length && keys.every((key) => branch.keys?.has(key)),
  );
  return exact ?? matching.find((branch) => branch.keys !== undefined && keys.every((key) => branch.keys?.has(key)));
}
