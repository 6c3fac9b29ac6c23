import { runCostOf } from '../cost/run-cost-meter.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { LoopResult, LoopStatus } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { PausedRun } from './paused-run.js';
import { withUntrustedSources } from './untrusted-sources-property.js';

/** The result of a run that stops here: a snapshot, so later changes to the state cannot rewrite it. */
export function finishLoop(state: LoopState, status: LoopStatus, paused?: PausedRun, stoppedBy?: string): LoopResult {
  const text = textOf(state.turns.at(-1));
  const result: LoopResult = {
    status,
    runId: state.runId,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    cost: runCostOf(state.cost),
    text,
    ...(paused === undefined ? {} : { paused }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...state.answer,
  };
  const { provenance } = state;
  if (provenance === undefined) return result;
  // Listed on first read only (each source's output digest is a hash). The list is fixed now: the run is over.
  return withUntrustedSources(result, provenance.refsOnDemand());
}

/** The last turn's text parts, joined as `join('')` would (a missing text, from a careless model, is ''). */
function textOf(turn: ModelTurn | undefined): string {
  let text = '';
  if (turn === undefined) return text;
  for (const part of turn.content) if (part.type === 'text' && part.text != null) text += part.text;
  return text;
}
