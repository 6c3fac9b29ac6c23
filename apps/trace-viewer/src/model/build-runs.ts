import { gateOf } from './gate-view.js';
import {
  type AttemptView,
  assignLanes,
  type CallView,
  categoryOf,
  firstEnd,
  firstStart,
  type RunView,
  type TurnView,
} from './run-view.js';
import type { CallRecord, InvocationRecord, TraceRecord } from './trace-types.js';

interface RunDraft {
  runId: string;
  invocations: InvocationRecord[];
  turns: Map<number, TurnView>;
  calls: Map<string, { turn: number; index: number; callId: string; tool: string; attempts: AttemptView[] }>;
  attempts: number;
  status?: string;
  usage: { input: number; output: number };
  usageFromEnd?: { input: number; output: number };
  start: number;
  end: number;
}

/** Groups records by run, then by turn; a call's attempts (pause, run after approval) become one call. */
export function buildRuns(records: readonly TraceRecord[], source: 'trace' | 'journal'): RunView[] {
  const runs = new Map<string, RunDraft>();
  const draftOf = (runId: string): RunDraft => {
    let draft = runs.get(runId);
    if (draft === undefined) {
      draft = {
        runId,
        invocations: [],
        turns: new Map(),
        calls: new Map(),
        attempts: 0,
        usage: { input: 0, output: 0 },
        start: Number.POSITIVE_INFINITY,
        end: Number.NEGATIVE_INFINITY,
      };
      runs.set(runId, draft);
    }
    return draft;
  };
  const positions = new Map<string, number>();
  for (const record of records) {
    if (record.type === 'trace') continue;
    const run = draftOf(record.runId);
    switch (record.type) {
      case 'invocation':
        run.invocations.push(record);
        widen(run, record.at, record.at);
        break;
      case 'model-call': {
        const turn = turnOf(run, record.turn);
        (turn as { modelCall?: typeof record }).modelCall = record;
        run.usage.input += record.usage?.inputTokens ?? 0;
        run.usage.output += record.usage?.outputTokens ?? 0;
        widen(run, record.start, record.end);
        break;
      }
      case 'call': {
        turnOf(run, record.turn);
        run.attempts += 1;
        // Journal entries have no position: number the calls of a turn in the order they first appear.
        let index = record.index;
        const positionKey = `${record.runId}\u0000${record.turn}\u0000${record.callId}`;
        if (index < 0) {
          index =
            positions.get(positionKey) ?? [...run.calls.values()].filter((call) => call.turn === record.turn).length;
          positions.set(positionKey, index);
        }
        const key = `${record.turn}:${index}:${record.callId}`;
        let call = run.calls.get(key);
        if (call === undefined) {
          call = { turn: record.turn, index, callId: record.callId, tool: record.tool, attempts: [] };
          run.calls.set(key, call);
        }
        call.attempts.push(attemptOf(record));
        widen(run, record.start, record.end);
        break;
      }
      case 'pause':
        turnOf(run, record.turn).pauses.push({ at: record.at, pending: record.pending });
        widen(run, record.at, record.at);
        break;
      case 'decision':
        turnOf(run, record.turn).decisions.push({
          callId: record.callId,
          tool: record.tool,
          approved: record.approved,
          by: record.by,
          inputDigest: record.inputDigest,
          at: record.at,
          ...(record.note === undefined ? {} : { note: record.note }),
          ...(typeof record.informedOf === 'string' ? { informedOf: record.informedOf } : {}),
        });
        widen(run, record.at, record.at);
        break;
      case 'invocation-end':
        run.status = record.status;
        widen(run, record.at, record.at);
        break;
    }
  }
  return [...runs.values()].map((draft) => finishRun(draft, source));
}

function finishRun(draft: RunDraft, source: 'trace' | 'journal'): RunView {
  const calls: CallView[] = [];
  for (const [key, call] of draft.calls) {
    const view: CallView = { key, ...call, category: categoryOf(call.attempts), lane: 0 };
    calls.push(view);
    draft.turns.get(call.turn)?.calls.push(view);
  }
  if (source === 'journal') {
    // A journal has no pause records: a call held for the human is one.
    for (const call of calls) {
      const held = call.attempts.find((attempt) => attempt.verdict === 'awaiting_confirmation');
      if (held === undefined) continue;
      draft.turns.get(call.turn)?.pauses.push({
        at: held.end,
        pending: [{ callId: call.callId, tool: call.tool, inputDigest: held.inputDigest ?? '' }],
      });
    }
  }
  const turns = [...draft.turns.values()].sort((a, b) => a.turn - b.turn);
  for (const turn of turns) {
    turn.calls.sort((a, b) => a.index - b.index);
    turn.lanes = assignLanes(turn.calls);
    const starts = turn.calls.map(firstStart);
    const ends = turn.calls.map(firstEnd);
    if (turn.modelCall !== undefined) {
      starts.push(turn.modelCall.start);
      ends.push(turn.modelCall.end);
    }
    turn.start = starts.length === 0 ? 0 : Math.min(...starts);
    turn.end = ends.length === 0 ? turn.start : Math.max(...ends);
  }
  const first = draft.invocations[0];
  return {
    runId: draft.runId,
    ...(first?.label === undefined ? {} : { label: first.label }),
    ...(first === undefined ? {} : { provider: first.provider, model: first.model, sessionId: first.sessionId }),
    source,
    turns,
    calls: calls.sort((a, b) => a.turn - b.turn || a.index - b.index),
    attempts: draft.attempts,
    ...(draft.status === undefined ? {} : { status: draft.status }),
    usage: draft.usage,
    invocations: draft.invocations.length,
    start: Number.isFinite(draft.start) ? draft.start : 0,
    end: Number.isFinite(draft.end) ? draft.end : 0,
  };
}

function turnOf(run: RunDraft, number: number): TurnView {
  let turn = run.turns.get(number);
  if (turn === undefined) {
    turn = { turn: number, calls: [], lanes: 1, pauses: [], decisions: [], start: 0, end: 0 };
    run.turns.set(number, turn);
  }
  return turn;
}

function widen(run: RunDraft, start: number, end: number): void {
  if (Number.isFinite(start)) run.start = Math.min(run.start, start);
  if (Number.isFinite(end)) run.end = Math.max(run.end, end);
}

function attemptOf(record: CallRecord): AttemptView {
  const {
    type: _type,
    runId: _runId,
    turn: _turn,
    index: _index,
    callId: _callId,
    tool: _tool,
    gate: given,
    outputTrust,
    ...rest
  } = record;
  // Read from a file: kept only when whole (see `gateOf`).
  const gate = gateOf(given);
  return {
    ...rest,
    ...(outputTrust === 'trusted' || outputTrust === 'untrusted' ? { outputTrust } : {}),
    ...(gate === undefined ? {} : { gate }),
  };
}
