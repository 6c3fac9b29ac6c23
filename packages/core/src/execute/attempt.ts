import type { DataFlowReport, ReferencedArgument } from '../data-flow/data-flow-report.js';
import { isoNow } from '../journal/iso-now.js';
import { canonicalCopy, walkedCanonicalCopy } from '../json/canonical-copy.js';
import { canonicalJson, sha256Hex } from '../json/canonical-json.js';
import type { JsonValue } from '../json/json.js';
import { plainInputCopy } from '../json/json-copy.js';
import type { ToolCallPart } from '../messages/messages.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import type { CallGate } from '../provenance/run-provenance.js';
import type { ExecutionContext } from './execution-context.js';
import type { JournalRepair, RepairProblem } from './repair-call.js';

/**
 * One call being answered, and its input, copied once: the tool gets its own copy, the journal and the digest
 * the model's bytes.
 */
export interface Attempt {
  readonly call: ToolCallPart;
  readonly context: ExecutionContext;
  readonly runId: string;
  /** Read only by the journal, so only built when there is one. */
  readonly at: string | undefined;
  readonly startedAt: number;
  /** What is validated and handed to the tool (the tool may mutate it: it is its own copy). */
  readonly copy: JsonValue | undefined;
  /**
   * The input's canonical JSON: made on first use from `call.input`, which nothing in the circuit mutates
   * (only a journal, `beforeRun`, an irreversible tool or a reader of the outcome's `inputDigest` needs it);
   * `null` when there is no usable input.
   */
  canonical: string | null | undefined;
  /** The SHA-256 of `canonical`, hashed on first use; `null` when there is no usable input. */
  digest: string | null | undefined;
  /** Set when the call is gated by the run's provenance (journaled with what the human is shown). */
  gate?: CallGate;
  /** Set when an argument was a reference to a quarantined document's value (`dataFlow.quarantine`). */
  references?: readonly ReferencedArgument[];
  /** What the run's data-flow options found about the call (journaled, without the values). */
  dataFlow?: DataFlowReport;
  /** References in the arguments that the run does not hold (the call is refused). */
  unknownReferences?: readonly string[];
  /** Set on a call the repair hook rewrote: the attempt it replaces and why. */
  readonly repairOf?: { readonly attempt: Attempt; readonly problem: RepairProblem };
  /** Set on an original call the repair hook declined or failed to repair. */
  repairNote?: JournalRepair;
}

export function startAttempt(call: ToolCallPart, context: ExecutionContext): Attempt {
  const input = inputOf(call);
  return {
    call,
    context,
    runId: context.runId ?? nodeCrypto().randomUUID(),
    at: context.journal === undefined ? undefined : isoNow(),
    startedAt: performance.now(),
    copy: input.copy,
    canonical: input.canonical,
    digest: input.canonical === null ? null : undefined,
  };
}

const NO_INPUT = Object.freeze({ copy: undefined, canonical: null });

function inputOf(call: ToolCallPart): {
  readonly copy: JsonValue | undefined;
  readonly canonical: string | null | undefined;
} {
  if (call.inputError !== undefined) return NO_INPUT;
  // What adapters produce (JSON.parse output) is copied directly; the canonical text waits until needed.
  const plain = plainInputCopy(call.input);
  if (plain !== undefined) return { copy: plain, canonical: undefined };
  try {
    // Anything else (toJSON, -0, undefined members, deep nesting) exactly as canonical JSON reads it: not
    // plain, so not plain with sorted keys either, and straight to the walk.
    return walkedCanonicalCopy(call.input);
  } catch {
    return NO_INPUT;
  }
}

/**
 * The journal's own copy of the input: whatever the tool did to its copy, the journal keeps what the model
 * sent, in canonical key order. Made with the canonical text in one step when that was not made yet.
 */
export function journalInputOf(attempt: Attempt): JsonValue | null {
  if (attempt.canonical === undefined) {
    const { canonical, copy } = canonicalCopy(attempt.call.input);
    attempt.canonical = canonical;
    return copy;
  }
  return attempt.canonical === null ? null : (JSON.parse(attempt.canonical) as JsonValue);
}

export function canonicalOf(attempt: Attempt): string | null {
  if (attempt.canonical === undefined) attempt.canonical = canonicalJson(attempt.call.input);
  return attempt.canonical;
}

export function digestOf(attempt: Attempt): string | null {
  if (attempt.digest === undefined) {
    const canonical = canonicalOf(attempt);
    attempt.digest = canonical === null ? null : sha256Hex(canonical);
  }
  return attempt.digest;
}
