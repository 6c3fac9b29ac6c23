import type { JsonObject, JsonValue } from '@toolcircuit/core';

/**
 * How to turn a provider-side value back into the original's shape. Built by the translator next to the
 * schema it emits, so the two can never disagree.
 */
export type RestorePlan =
  | { readonly kind: 'same' }
  /** The value travels as JSON text (`wrapped`: inside `{ "json": "..." }`, to tell it from a plain string). */
  | { readonly kind: 'json'; readonly wrapped: boolean }
  | { readonly kind: 'object'; readonly properties: ReadonlyMap<string, PropertyPlan> }
  | { readonly kind: 'array'; readonly prefix: readonly RestorePlan[]; readonly items: RestorePlan }
  | { readonly kind: 'any-of'; readonly branches: readonly BranchPlan[] }
  /** A recursive `$defs` target; resolved when first used. */
  | { readonly kind: 'lazy'; readonly resolve: () => RestorePlan };

export interface PropertyPlan {
  readonly plan: RestorePlan;
  /** OpenAI strict: the property was optional, so `null` means the model left it out. */
  readonly nullMeansOmitted: boolean;
}

export interface BranchPlan {
  readonly plan: RestorePlan;
  /** The provider-side branch (to flatten nested unions). */
  readonly schema: JsonObject;
  /** The original branch it was translated from, when known. */
  readonly source?: { readonly value: JsonValue; readonly pointer: string };
  /** JSON types the provider-side branch accepts (`integer` values also match `number`). */
  readonly types: ReadonlySet<string>;
  /** Declared keys, for object branches: the fallback when validation cannot decide. */
  readonly keys: ReadonlySet<string> | undefined;
  /**
   * Whether a restored value is valid under the ORIGINAL branch schema (ajv, compiled on first use):
   * restoring tries the branches in order and keeps the first whose result the original accepts.
   */
  readonly accepts?: (value: unknown) => boolean;
}

export const SAME: RestorePlan = Object.freeze({ kind: 'same' });

/** True when no value under this plan ever changes, so restoring can skip the subtree. */
export function isSame(plan: RestorePlan): boolean {
  return plan.kind === 'same';
}
