import type { ModelTurn } from '../messages/model-turn.js';
import type { TaintSourceRef } from '../provenance/taint-source.js';
import type { LoopResult, LoopStatus } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { PausedRun } from './paused-run.js';

/** The result of a run that stops here: a snapshot, so later changes to the state cannot rewrite it. */
export function finishLoop(state: LoopState, status: LoopStatus, paused?: PausedRun, stoppedBy?: string): LoopResult {
  const text = textOf(state.turns.at(-1));
  const result: LoopResult = {
    status,
    runId: state.runId,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    text,
    ...(paused === undefined ? {} : { paused }),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...state.answer,
  };
  const { provenance } = state;
  if (provenance === undefined) return result;
  // Listed on first read only (each source's output digest is a hash): an own enumerable getter, so a
  // spread or JSON.stringify of the result still holds it. The list is fixed now: the run is over.
  sourcesOf.set(result, provenance.refsOnDemand());
  return Object.defineProperty(result, 'untrustedSources', UNTRUSTED_SOURCES);
}

/**
 * Each result's sources, read by one shared getter: a getter made per result gave every result an object
 * layout of its own (V8 shares a layout between objects only when their accessors are the same functions).
 */
const sourcesOf = new WeakMap<object, () => readonly TaintSourceRef[]>();

const UNTRUSTED_SOURCES: PropertyDescriptor = {
  enumerable: true,
  get(this: object): readonly TaintSourceRef[] {
    return sourcesOf.get(this)?.() ?? [];
  },
};

/** The last turn's text parts, joined as `join('')` would (a missing text, from a careless model, is ''). */
function textOf(turn: ModelTurn | undefined): string {
  let text = '';
  if (turn === undefined) return text;
  for (const part of turn.content) if (part.type === 'text' && part.text != null) text += part.text;
  return text;
}
