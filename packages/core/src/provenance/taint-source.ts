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
  /** SHA-256 of the result content's canonical JSON (of its text, for hosted content). */
  readonly outputDigest: string;
  readonly text: string;
  /**
   * Set on content a provider's hosted tool put into the model's context within its own response (a web
   * search result, code output: `UntrustedContent`). `callId` is then the provider's id of the item and
   * `toolName` its kind.
   */
  readonly hosted?: true;
  /**
   * For hosted content: the calls of its own turn that the model made after it. They are judged with it;
   * calls of later turns are judged with it like with any source of an earlier turn.
   */
  readonly precedes?: readonly string[];
}

/** A taint source without its text: what a confirmation request, the journal and events show. */
export type TaintSourceRef = Omit<TaintSource, 'text'>;

export function refOf(source: TaintSource): TaintSourceRef {
  const ref = {
    turn: source.turn,
    callId: source.callId,
    toolName: source.toolName,
    outputDigest: source.outputDigest,
  };
  if (source.hosted !== true) return ref;
  return { ...ref, hosted: true, ...(source.precedes === undefined ? {} : { precedes: source.precedes }) };
}
