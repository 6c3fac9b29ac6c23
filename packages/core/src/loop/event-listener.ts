import { withPartialOutputs } from '../output/partial-output-events.js';
import type { EmitLoopEvent, LoopStreamEvent } from './loop-stream-event.js';

/**
 * The listener `runLoop`, `resumeLoop` and `continueLoop` take besides their options (kept out of
 * `LoopOptions`, which `streamLoop` shares: a stream yields its events instead).
 */
export interface LoopEventListener {
  /**
   * Told of every event `streamLoop` would yield (text deltas included: the model is read through its
   * `stream` when it has one), as the loop goes, including the verdicts and results of the calls a resume
   * runs and the resumed turn's reply. A listener, not a reader: the loop does not wait for it, and what it
   * throws is ignored, so it never changes what runs.
   */
  readonly onEvent?: (event: LoopStreamEvent) => void;
}

/**
 * The circuit's emitter for an `onEvent` listener: events go out as `streamLoop` would yield them (with the
 * `output-partial` events of a run with `output`), and a listener that throws is ignored, so that telling
 * someone about the run never changes what runs or what is stored. `undefined` without a listener: then no
 * event is even made.
 */
export function emitterOf(
  onEvent: ((event: LoopStreamEvent) => void) | undefined,
  withOutput: boolean,
): EmitLoopEvent | undefined {
  if (onEvent === undefined) return undefined;
  const emit = (event: LoopStreamEvent): void => {
    try {
      onEvent(event);
    } catch {
      // The listener's failure is its own: the run goes on exactly as without it.
    }
  };
  return withOutput ? withPartialOutputs(emit) : emit;
}
