import type { LoopResult, LoopStatus } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { PausedRun } from './paused-run.js';

/** The result of a run that stops here: a snapshot, so later changes to the state cannot rewrite it. */
export function finishLoop(state: LoopState, status: LoopStatus, paused?: PausedRun, stoppedBy?: string): LoopResult {
  const last = state.turns.at(-1);
  const text = (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  const result: LoopResult = {
    status,
    runId: state.runId,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    text,
    ...(paused === undefined ? {} : { paused }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
  };
  const { provenance } = state;
  if (provenance === undefined) return result;
  // Listed on first read only (each source's output digest is a hash): an own enumerable getter, so a
  // spread or JSON.stringify of the result still holds it. The list is fixed now: the run is over.
  return Object.defineProperty(result, 'untrustedSources', { enumerable: true, get: provenance.refsOnDemand() });
}
