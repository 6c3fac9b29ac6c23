import {
  type JournalEntry,
  type JsonValue,
  type LoopResult,
  type LoopStatus,
  type Message,
  type RefusalReason,
  type ToolCallPart,
  toolCallsOf,
  toolResultText,
  type UnifiedStopReason,
  type VerdictKind,
} from '@toolcircuit/core';

/**
 * The journal's verdict, or what went wrong with the journal itself: a call must be journaled exactly once,
 * and no expectation holds the two extra values, so a comparison that meets them fails and says why.
 */
export type TraceVerdict = VerdictKind | 'unjournaled' | 'journaled-more-than-once';

/** One call as the circuit judged it: what was asked, and what the executor decided (from the journal). */
export interface NeutralCall {
  readonly name: string;
  /** The journal's JSON copy of the input; `null` when the provider sent arguments that are not JSON. */
  readonly input: JsonValue;
  readonly verdict: TraceVerdict;
  readonly reason?: RefusalReason;
}

/** One result of the reply that followed a turn, in reply order. */
export interface NeutralResult {
  /** Position of the call it answers among the turn's calls (-1: it answers no call of the turn). */
  readonly answers: number;
  readonly name: string;
  readonly isError: boolean;
  /** The result as text (`toolResultText`), what a text-only provider receives. */
  readonly text: string;
}

export interface NeutralTurn {
  readonly stopReason: UnifiedStopReason;
  /** The turn's visible text, parts joined. */
  readonly text: string;
  readonly calls: readonly NeutralCall[];
  /** The reply sent after the turn; `null` when none followed (a final answer). */
  readonly results: readonly NeutralResult[] | null;
}

/**
 * What a run did, with everything provider-specific left out (call ids, raw stop reasons, usage, provider
 * metadata): two backends that behave the same give deep-equal traces.
 */
export interface NeutralTrace {
  readonly status: LoopStatus;
  readonly turnCount: number;
  readonly turns: readonly NeutralTurn[];
}

/**
 * The neutral trace of a finished run. Verdicts come from the journal, joined to calls by turn and call id,
 * so calls appear in emission order even when parallel calls were journaled in completion order.
 */
export function neutralTrace(result: LoopResult, journal: { readonly entries: readonly JournalEntry[] }): NeutralTrace {
  const entries = journal.entries.filter((entry) => entry.runId === result.runId);
  // The run's turns are its last assistant messages (the initial history may hold earlier ones).
  const assistantIndexes = result.messages
    .flatMap((message, index) => (message.role === 'assistant' ? [index] : []))
    .slice(-result.turns.length);
  const turns = result.turns.map((turn, index): NeutralTurn => {
    const turnNumber = index + 1;
    const calls = toolCallsOf(turn.content);
    return {
      stopReason: turn.stopReason.unified,
      text: turn.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      calls: calls.map((call) =>
        neutralCall(
          call,
          entries.filter((e) => e.turn === turnNumber && e.callId === call.id),
        ),
      ),
      results: replyAfter(result.messages, assistantIndexes[index], calls),
    };
  });
  return { status: result.status, turnCount: result.turns.length, turns };
}

function neutralCall(call: ToolCallPart, entries: readonly JournalEntry[]): NeutralCall {
  const entry = entries[0];
  if (entry === undefined) return { name: call.name, input: null, verdict: 'unjournaled' };
  if (entries.length > 1) return { name: call.name, input: null, verdict: 'journaled-more-than-once' };
  return {
    name: entry.toolName,
    input: entry.input,
    verdict: entry.verdict,
    ...(entry.reason === undefined ? {} : { reason: entry.reason }),
  };
}

/** The tool message right after the turn's assistant message, if any. */
function replyAfter(
  messages: readonly Message[],
  assistantIndex: number | undefined,
  calls: readonly ToolCallPart[],
): NeutralResult[] | null {
  const next = assistantIndex === undefined ? undefined : messages[assistantIndex + 1];
  if (next?.role !== 'tool') return null;
  return next.content.map((result) => ({
    answers: calls.findIndex((call) => call.id === result.callId),
    name: result.name,
    isError: result.isError,
    text: toolResultText(result.content),
  }));
}
