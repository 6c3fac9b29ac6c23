import type { JsonValue } from '../json/json.js';
import type { ToolResultContent } from './messages.js';

/** A value the human vouched for by typing or choosing it when deciding a call: their own words. */
export interface VouchedValue {
  /** The argument it was vouched for (a JSON Pointer into the call's input). */
  readonly path: string;
  readonly value: string | number | boolean;
}

/**
 * What the run's data-flow options kept with a tool result, beside what the model was sent (`content`).
 * It travels with the conversation (paused, interrupted and stored runs, a run started from these messages),
 * so a run picks up its documents, extracted values, vouched values and plan wherever it goes on. Adapters
 * never send it: providers only receive `content`.
 */
export interface ResultDataFlow {
  /** A quarantined tool's own output; the model was sent a handle in its place. */
  readonly quarantined?: { readonly handle: string; readonly content: ToolResultContent };
  /** The values an extraction read from a quarantined document, by the references the model was sent. */
  readonly extracted?: { readonly handle: string; readonly values: Readonly<Record<string, JsonValue>> };
  /** Values the human vouched for when deciding this call; trusted for the rest of the run. */
  readonly vouched?: readonly VouchedValue[];
  /** The human who vouched. */
  readonly vouchedBy?: string;
  /** The gated tools a plan declaration (made before anything untrusted was read) added to the run's plan. */
  readonly planned?: readonly string[];
}
