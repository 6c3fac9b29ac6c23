import type { Catalogue } from '../catalogue/catalogue.js';
import type { ResultContentLimits } from '../content/result-content-limits.js';
import type { Journal } from '../journal/journal.js';
import type { ToolCallPart } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import type { Session } from '../session/session.js';
import type { StepPlan } from '../step/step-settings.js';
import type { RepairToolCall } from './repair-call.js';

/** How unconfirmed irreversible calls are handled: refused with an explanation, or held for the human. */
export type ConfirmationMode = 'refuse' | 'pause';

export interface ExecutionContext {
  readonly catalogue: Catalogue;
  readonly session: Session;
  readonly runId?: string;
  /** 1-based model turn, recorded in the journal. */
  readonly turn?: number;
  readonly journal?: Journal;
  /** Aborts waiting for the tool and is forwarded to it. */
  readonly signal?: AbortSignal;
  /** Default timeout for tools that set none themselves. No timeout when both are absent. */
  readonly timeoutMs?: number;
  readonly confirmation?: ConfirmationMode;
  /** Size limits for images and files in tool results; a part over them becomes an `isError` result. */
  readonly resultLimits?: ResultContentLimits;
  /**
   * Awaited after the four checks passed, just before the tool runs (never for a refused call). A durable
   * store uses it to record "this call is starting" first, so that after a crash it can tell a call that
   * never started (safe to run) from one that may have run. If it throws, the tool does not run and the
   * error propagates: the run stops rather than run a call it could not record.
   */
  readonly beforeRun?: (event: ToolStartEvent) => void | Promise<void>;
  /**
   * The run's provenance: untrusted results are recorded in it, and irreversible or sensitive calls made
   * after one need a fresh, informed confirmation. Absent: no tracking (the four checks only).
   */
  readonly provenance?: RunProvenance;
  /**
   * The deferred tools the run has loaded. When present, a call to a deferred tool of the catalogue that is
   * not loaded is refused (`tool_not_loaded`) with a hint to search first. Absent: deferral is not checked.
   */
  readonly loadedTools?: { has(name: string): boolean };
  /**
   * The tools the step's plan allows (`activeTools`, `prepareStep`): a call to another catalogue tool is
   * refused (`inactive_tool`) at the first check. A deferred tool must also be loaded: one the plan allows but
   * no search loaded yet is `tool_not_loaded` while the plan offers the search, else `inactive_tool`.
   * Absent: every catalogue tool (deferred ones once loaded).
   */
  readonly activeTools?: ReadonlySet<string>;
  /** The declarations offered at this step, shown to the repair hook and named in refusals. Default: the catalogue's. */
  readonly tools?: readonly ToolDeclaration[];
  /** The step's plan, journaled with each of its calls. */
  readonly step?: StepPlan;
  /** Rewrites calls refused by the first two checks; the rewrite goes through all four again. */
  readonly repair?: RepairToolCall;
  /** The digest of the run's output schema (the loop's `output`), journaled with each call. */
  readonly outputSchemaDigest?: string;
}

/** A call that passed the four checks and is about to run. */
export interface ToolStartEvent {
  readonly runId: string;
  readonly turn: number;
  readonly call: ToolCallPart;
  readonly inputDigest: string | null;
}
