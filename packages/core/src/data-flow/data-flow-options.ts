import type { JsonValue } from '../json/json.js';
import type { Model } from '../messages/model.js';
import type { ReferencedArgument } from './data-flow-report.js';

/**
 * Which argument paths of a call must hold trusted data, decided per call. Asked with the call's arguments
 * once references to quarantined documents are resolved; returns JSON Pointers (`/iban`; a
 * segment `*` stands for every element of an array or member of an object).
 * An empty list checks nothing for this call. A policy that throws refuses the call.
 */
export type SinkPolicy = (query: SinkQuery) => readonly string[] | Promise<readonly string[]>;

/** What a sink policy is asked. */
export interface SinkQuery {
  readonly toolName: string;
  /** The arguments as the tool would receive them (references resolved). */
  readonly input: JsonValue;
  /** The argument values taken from a quarantined document, with the document they came from. */
  readonly references: readonly ReferencedArgument[];
  /** Whether this value is found in a trusted source of the run (the same test the listed paths get). */
  readonly isTrusted: (value: JsonValue) => boolean;
}

/**
 * Argument paths that must come from trusted data: JSON Pointers into the input (`/to`, `/iban`), where a
 * segment `*` stands for every element of an array or member of an object, or a {@link SinkPolicy}.
 */
export type TrustedOnly = readonly string[] | SinkPolicy;

/**
 * Freezes the gated tools a run may call once untrusted content is in it. A gated call (irreversible or
 * sensitive, made after untrusted content arrived) to a tool outside the plan is refused without asking.
 */
export interface PlanOptions {
  /** The application's list for this task. */
  readonly tools?: readonly string[];
  /**
   * Offer the model a built-in tool to name the actions it needs before it reads anything untrusted; what it
   * names then joins the plan. Calls of it made after untrusted content arrived are refused.
   */
  readonly declare?: boolean;
  /** The built-in tool's name. Default `declare_plan`. */
  readonly toolName?: string;
}

/**
 * The quarantined reader (the dual-LLM pattern): the results of these tools never reach the model of the
 * run, which sees a handle (`$doc1`) instead and a built-in tool, `extract(handle, fields)`, answered by a
 * separate call to `reader` with no tools. Extracted values come back as references (`$doc1.iban`) that the
 * model passes as argument values; the circuit puts the values in and knows exactly where each came from.
 */
export interface QuarantineOptions {
  /** The tools whose output is quarantined (their output must be untrusted). */
  readonly tools: readonly string[];
  /** The model that reads quarantined documents: any adapter's model (or a scripted one); it is given no tools. */
  readonly reader: Model;
  /** The built-in tool's name. Default `extract`. */
  readonly extractToolName?: string;
}

/**
 * Data-flow options of a run (`LoopOptions.dataFlow`), each independent of the others. They need the run's
 * provenance (on by default).
 */
export interface DataFlowOptions {
  /**
   * Per tool name, argument paths whose value must be found in a trusted source of the run (the human's own
   * messages, the system text, outputs of trusted tools, values vouched for), besides what tools declare
   * themselves (`ToolDefinition.trustedOnly`; this map wins for a tool it names).
   */
  readonly trustedOnly?: Readonly<Record<string, TrustedOnly>>;
  /** Values the application vouches for in this run (the user's saved payees, their own address…). */
  readonly vouched?: readonly (string | number)[];
  readonly plan?: PlanOptions;
  readonly quarantine?: QuarantineOptions;
}
