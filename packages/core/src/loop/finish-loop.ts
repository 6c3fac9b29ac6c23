import { refOf } from '../provenance/taint-source.js';
import type { LoopResult, LoopStatus } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { PausedRun } from './paused-run.js';

/** The result of a run that stops here: a snapshot, so later changes to the state cannot rewrite it. */
export function finishLoop(state: LoopState, status: LoopStatus, paused?: PausedRun): LoopResult {
  const last = state.turns.at(-1);
  const text = (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  return {
    status,
    runId: state.runId,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    text,
    ...(paused === undefined ? {} : { paused }),
    ...(state.provenance === undefined ? {} : { untrustedSources: state.provenance.sources().map(refOf) }),
  };
}
