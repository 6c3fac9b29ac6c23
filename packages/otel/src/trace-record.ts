import type {
  Cost,
  JournalDataFlow,
  JsonValue,
  OutputTrust,
  RefusalReason,
  StopReason,
  TaintPolicy,
  TaintSourceRef,
  ToolChoice,
  ToolResultContent,
  Usage,
  VerdictKind,
} from '@toolcircuit/core';

/**
 * One line of a toolcircuit trace file (JSON lines, version 1): what `toolcircuit trace open` and the trace
 * viewer read. Times are epoch milliseconds. Several runs (and several invocations of one run: a start,
 * then a resume after a pause) may share a file; `runId` groups them. Fields marked "content" are present
 * only when the trace was made with content capture on.
 */
export type TraceRecord =
  | TraceHeaderRecord
  | InvocationRecord
  | ModelCallRecord
  | CallRecord
  | PauseRecord
  | DecisionRecord
  | InvocationEndRecord;

export const TRACE_FORMAT_VERSION = 1;

export interface TraceHeaderRecord {
  readonly type: 'trace';
  readonly version: typeof TRACE_FORMAT_VERSION;
  readonly producer: string;
  readonly at: number;
  /** Free text shown by the viewer (e.g. "toolcircuit demo"). */
  readonly title?: string;
}

export interface InvocationRecord {
  readonly type: 'invocation';
  readonly runId: string;
  /** `start` (runLoop, streamLoop), `resume` (resumeLoop), `continue` (continueLoop after a model failure). */
  readonly kind: 'start' | 'resume' | 'continue';
  readonly at: number;
  /** Which backend or configuration the run used, when the application says (the demo: its backend id). */
  readonly label?: string;
  readonly provider: string;
  readonly model: string;
  readonly sessionId: string;
  readonly streaming: boolean;
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    readonly right: string | null;
    readonly irreversible: boolean;
  }[];
  /** Content: the system text and the messages the invocation started from. */
  readonly system?: string;
  readonly messages?: JsonValue;
}

export interface ModelCallRecord {
  readonly type: 'model-call';
  readonly runId: string;
  readonly turn: number;
  readonly start: number;
  readonly end: number;
  readonly firstChunk?: number;
  readonly provider: string;
  readonly requestModel: string;
  /** The catalogue tools offered at this step (names), and the step's tool choice. */
  readonly tools?: readonly string[];
  readonly toolChoice?: ToolChoice;
  readonly responseModel?: string;
  readonly responseId?: string;
  readonly stopReason?: StopReason;
  readonly usage?: Usage;
  /**
   * On a run given a fallback list: the model of the list that answered this turn (0: the primary), since
   * `provider` and `requestModel` name the list itself.
   */
  readonly answeringModel?: { readonly provider: string; readonly modelId: string; readonly member: number };
  /** What the turn cost at the answering model's price (`LoopResult.cost`): dollars, or `unknown` and why. */
  readonly cost?: Cost;
  /** The calls the model asked for, in order. */
  readonly calls?: readonly { readonly id: string; readonly name: string }[];
  readonly error?: { readonly type: string; readonly message: string; readonly retryable?: boolean };
  /** Content: the turn's text. */
  readonly text?: string;
  /** Content: where the turn's text came from (citations, annotations, grounding), in order. */
  readonly sources?: readonly TraceSource[];
  /**
   * What the turn held that the adapter had no neutral meaning for (`provider` parts): by provider and the
   * provider's own name for it. Kept in the conversation and journaled as notes; named here (not content).
   */
  readonly providerParts?: readonly { readonly provider: string; readonly kind: string }[];
}

/** A source of a turn's text, as a trace keeps it: what it is and where, not the passage's whole context. */
export interface TraceSource {
  readonly sourceType: 'url' | 'file' | 'document';
  readonly url?: string;
  readonly title?: string;
  readonly fileId?: string;
  readonly filename?: string;
  readonly citedText?: string;
}

export interface CallRecord {
  readonly type: 'call';
  readonly runId: string;
  readonly turn: number;
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly start: number;
  readonly end: number;
  readonly verdict: VerdictKind;
  readonly reason?: RefusalReason;
  readonly isError: boolean;
  /** The right the third check looked for (`null`: open to every session; absent: unknown tool). */
  readonly right?: string | null;
  readonly irreversible?: boolean;
  readonly inputDigest: string | null;
  readonly outputDigest?: string;
  /** SHA-256 of the journal entry's canonical JSON (without `seq`), when the run had a journal. */
  readonly entryDigest?: string;
  readonly retries: number;
  readonly resumed: boolean;
  readonly timeoutMs?: number;
  /** Where the call came from: the model response that asked for it. */
  readonly provenance: { readonly turn: number; readonly provider: string; readonly responseId?: string };
  /**
   * Whether the call's output may carry someone else's instructions (it then taints the run): from its
   * journal entry, when the run had a journal and tracked provenance.
   */
  readonly outputTrust?: OutputTrust;
  /** Why the call was gated (untrusted output was in the run when the model asked for it); absent: it was not. */
  readonly gate?: CallGateRecord;
  /**
   * What the run's data-flow options found (as the journal keeps it: which values came from quarantined
   * documents, where each trusted-only value was found, which option refused or held the call).
   */
  readonly dataFlow?: JournalDataFlow;
  /** Content: the arguments, the result sent back to the model, the refusal or failure text. */
  readonly input?: JsonValue;
  readonly result?: ToolResultContent;
  readonly message?: string;
}

/**
 * A gated call: the untrusted sources in the run's context when the model asked for it, and which argument
 * values were found in them. It ran only with a confirmation naming `taintDigest` (given by a human shown
 * all this), or under the application's `allow` policy.
 */
export interface CallGateRecord {
  readonly gatedBecause: 'irreversible' | 'sensitive';
  /** The application's provenance policy for it; absent when the run had no journal to say. */
  readonly policy?: TaintPolicy;
  readonly taintDigest: string;
  readonly untrustedSources: readonly TaintSourceRef[];
  readonly flaggedArguments: readonly {
    /** JSON Pointer into the input. */
    readonly path: string;
    readonly foundIn: readonly TaintSourceRef[];
    /** Content: the value found in untrusted output. */
    readonly value?: string | number;
  }[];
}

export interface PauseRecord {
  readonly type: 'pause';
  readonly runId: string;
  readonly turn: number;
  readonly at: number;
  readonly pending: readonly {
    readonly callId: string;
    readonly tool: string;
    readonly inputDigest: string;
    /** For a call held by the data-flow options: why, and the paths the human may vouch for. */
    readonly dataFlow?: JournalDataFlow;
    /** Content. */
    readonly input?: JsonValue;
  }[];
}

export interface DecisionRecord {
  readonly type: 'decision';
  readonly runId: string;
  readonly turn: number;
  readonly at: number;
  readonly callId: string;
  readonly tool: string;
  readonly approved: boolean;
  readonly inputDigest: string;
  /** The human whose decision it is: the session's. */
  readonly by: string;
  /**
   * For a gated call: the taint digest the approval names, i.e. the untrusted sources the human was shown
   * (the call's `gate.taintDigest`).
   */
  readonly informedOf?: string;
  /** The paths of the values the human vouched for (typed or chosen by them), when they did. */
  readonly vouched?: readonly string[];
  /** Content: the human's note, and the values they vouched for. */
  readonly note?: string;
  readonly vouchedValues?: readonly (string | number | boolean)[];
}

export interface InvocationEndRecord {
  readonly type: 'invocation-end';
  readonly runId: string;
  readonly at: number;
  readonly status: 'completed' | 'max_turns' | 'paused' | 'aborted' | 'stopped' | 'error';
  /** For `stopped`: the stop condition that held. */
  readonly stoppedBy?: string;
  readonly turns: number;
  readonly usage?: Usage;
  readonly error?: { readonly type: string; readonly message: string };
}

/** One record as one line of the file. */
export function traceRecordLine(record: TraceRecord): string {
  return `${JSON.stringify(record)}\n`;
}
