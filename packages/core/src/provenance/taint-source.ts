/**
 * One untrusted result that entered the run's context: which call, of which tool, in which turn, and the
 * digest of what it returned. Turn 0 stands for results that were already in the conversation the run
 * started from. `text` is what argument values are searched in (the result's text and the string and
 * number leaves of its JSON parts), kept so a paused run can be resumed elsewhere.
 */
export interface TaintSource {
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  /** SHA-256 of the result content's canonical JSON. */
  readonly outputDigest: string;
  readonly text: string;
}

/** A taint source without its text: what a confirmation request, the journal and events show. */
export type TaintSourceRef = Omit<TaintSource, 'text'>;

export function refOf(source: TaintSource): TaintSourceRef {
  return { turn: source.turn, callId: source.callId, toolName: source.toolName, outputDigest: source.outputDigest };
}
