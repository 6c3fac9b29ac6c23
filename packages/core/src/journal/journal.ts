import type { JournaledMediaPart } from '../content/journal-content.js';
import type { JournalDataFlow } from '../data-flow/data-flow-report.js';
import type { JournalRepair } from '../execute/repair-call.js';
import type { RefusalReason, VerdictKind } from '../execute/verdict.js';
import type { JsonValue } from '../json/json.js';
import type { ToolResultPart } from '../messages/messages.js';
import type { FlaggedArgument } from '../provenance/confirmation-request.js';
import type { OutputTrust, TaintPolicy } from '../provenance/provenance-options.js';
import type { TaintSourceRef } from '../provenance/taint-source.js';
import type { StepPlan } from '../step/step-settings.js';
import type { CallProtocol } from './call-protocol.js';

/**
 * One attempted call, accepted or refused. Plain JSON data on purpose: later stores (SQLite, Postgres, hash
 * chaining) persist it as it is.
 */
export interface JournalEntry {
  /** Assigned by the journal on append, in append order. */
  readonly seq?: number;
  /** When the attempt started (ISO 8601). */
  readonly at: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  /** 1-based model turn the call came from. */
  readonly turn: number;
  readonly callId: string;
  /**
   * The provider's id when the loop replaced it to keep ids unique on the wire (`null`: it sent none);
   * `callId` is then the replacement, the id the call and its result carry in every request.
   */
  readonly originalCallId?: string | null;
  /** The name the model used, even for an unknown tool. */
  readonly toolName: string;
  /** The arguments as the model gave them (a JSON copy); `null` when the provider sent unparsable text. */
  readonly input: JsonValue;
  /** The provider's raw argument text, kept when it was not valid JSON. */
  readonly rawInput?: string;
  /** SHA-256 of the input's canonical JSON; `null` only when there was no parsable input. */
  readonly inputDigest: string | null;
  readonly verdict: VerdictKind;
  readonly reason?: RefusalReason;
  /** For failures: the error message the tool threw (kept here for the operator, not sent to the model). */
  readonly detail?: string;
  readonly durationMs: number;
  /** SHA-256 of the result content's canonical JSON (binary parts in journal form), for executed calls. */
  readonly outputDigest?: string;
  /** The result's images and files as digest, media type and size (never their bytes), for executed calls. */
  readonly outputMedia?: readonly JournaledMediaPart[];
  /** Where the run's context came from when this call was made; present when the run tracks provenance. */
  readonly provenance?: JournalProvenance;
  /** The plan of the step the call came from (tools offered, tool choice, model); present for planned runs. */
  readonly step?: StepPlan;
  /** Present when the run's repair hook was asked about this call: what it did, and the original call. */
  readonly repair?: JournalRepair;
  /**
   * Present when the run's data-flow options had a say (`LoopOptions.dataFlow`): which arguments were taken
   * from quarantined documents, where each trusted-only value was found, which option refused or held the call.
   */
  readonly dataFlow?: JournalDataFlow;
  /**
   * SHA-256 of the JSON Schema the run's final answer is validated against (canonical JSON), for runs with
   * the loop's `output` option: which answer the calls were made towards.
   */
  readonly outputSchemaDigest?: string;
  /**
   * The wire protocol the call travelled over: the tool's own `protocol` (an imported MCP tool), or the one a
   * served call arrived on. Absent for a tool that runs in this process.
   */
  readonly protocol?: CallProtocol;
}

/**
 * A call's provenance in the journal. An entry with `outputTrust: 'untrusted'` and verdict `executed` (or
 * `failed`) is a taint source: its result entered the context. `gate` is what the human was (or would have
 * been) shown for a gated call; the arguments themselves are the entry's `input`.
 */
export interface JournalProvenance {
  readonly outputTrust: OutputTrust;
  /** How many untrusted results were in the context when the model made this call. */
  readonly taintedBy: number;
  readonly gate?: {
    readonly gatedBecause: 'irreversible' | 'sensitive';
    readonly policy: TaintPolicy;
    /** The digest a confirmation had to name for this call to run. */
    readonly taintDigest: string;
    readonly untrustedSources: readonly TaintSourceRef[];
    /**
     * Where the flagged argument values are in `input`, and which sources hold them. The values themselves
     * are left out: they are in `input`, which a store may redact, and must not survive here.
     */
    readonly flaggedArguments: readonly Omit<FlaggedArgument, 'value'>[];
  };
}

/**
 * What the executor hands a journal besides the entry. Not part of the entry on purpose: the result content
 * may be large or hold data an audit trail must not keep, so each journal decides what to persist of it (a
 * durable store keeps it with the run so a resumed run can reuse it instead of running the call again).
 */
export interface JournalAppendDetail {
  /** The result that goes back to the model for this call. */
  readonly result: ToolResultPart;
}

/** What every journal note says: when, in which run and session, for whom, about which turn. */
export interface TurnNote {
  /** When the turn was read (ISO 8601). */
  readonly at: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  /** 1-based model turn the note is about. */
  readonly turn: number;
}

/**
 * Something the loop saw in a model turn that is not a call but belongs in the audit trail: a part the
 * adapter could not give a neutral meaning (a `provider` part: an item, block or part of a type it does not
 * know). The part itself stays in the conversation; the note says it was there, and what it was.
 */
export interface ProviderPartNote extends TurnNote {
  readonly kind: 'provider_part';
  /** The adapter that kept it (`anthropic`, `openai`, `google`…). */
  readonly provider: string;
  /** The provider's own name for it (an item or block `type`, a Gemini part's field). */
  readonly partKind: string;
  /** Its position among the turn's parts. */
  readonly index: number;
  /** SHA-256 of the part's canonical JSON: what was received, without keeping it here. */
  readonly dataDigest: string;
}

/**
 * Which model of a fallback list answered a turn (`LoopOptions.model` as a list, or a `fallbackModel`), and
 * the models that failed it first, and what the turn cost at that model's price: one note per turn of such a
 * run, so the audit trail says which provider saw what, wrote which calls, and was paid what.
 */
export interface AnsweringModelNote extends TurnNote {
  readonly kind: 'answering_model';
  readonly provider: string;
  readonly modelId: string;
  /** Its place in the list (0: the primary). */
  readonly member: number;
  /** The models that failed this turn before, in order, with the error code (and HTTP status) of each. */
  readonly fellBackFrom?: readonly {
    readonly provider: string;
    readonly modelId: string;
    readonly member: number;
    readonly code: string;
    readonly status?: number;
  }[];
  /** What the turn cost in US dollars at the answering model's price (`LoopResult.cost`); `unknown` never zero. */
  readonly usd: number | 'unknown';
  /** For `usd: 'unknown'`: why (no price for the model, no token counts…). */
  readonly why?: string;
}

/** What the loop notes about a turn besides its calls. */
export type JournalNote = ProviderPartNote | AnsweringModelNote;

/**
 * Append-only record of every attempt. `append` may be async (database stores); the executor awaits it
 * before the call's result is used, so a run never gets ahead of its audit trail. `note`, where a journal
 * has it, records what a turn held besides calls (see {@link JournalNote}); the loop awaits it too.
 */
export interface Journal {
  append(entry: JournalEntry, detail?: JournalAppendDetail): void | Promise<void>;
  note?(note: JournalNote): void | Promise<void>;
}
