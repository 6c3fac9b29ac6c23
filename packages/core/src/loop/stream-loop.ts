import { withOneModel } from '../fallback/one-model.js';
import type { InferOutput, OutputOptions, OutputSchema } from '../output/output-options.js';
import { withPartialOutputs } from '../output/partial-output-events.js';
import { checkLoopOptions } from './check-loop-options.js';
import { runCircuit } from './circuit.js';
import { finishLoop } from './finish-loop.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopResult } from './loop-result.js';
import { startLoopState } from './loop-state.js';
import type { LoopStreamEvent } from './loop-stream-event.js';
import { LoopStreamStopped } from './loop-stream-stopped.js';
import { pullEvents } from './pull-events.js';
import { streamedTurns } from './turn-source.js';

/**
 * A running loop as a stream of events, read once with `for await`. `result` settles when the stream does:
 * with the `loop-end` result, with the thrown error, or (when the application stops reading) with status
 * `aborted`. Nothing runs until the stream is read, so do not wait for `result` before reading it.
 */
export interface LoopStream<Output = unknown> extends AsyncIterable<LoopStreamEvent> {
  readonly result: Promise<LoopResult<Output>>;
}

/**
 * `runLoop` as a stream: the same loop, the same four checks and the same pairing, with every model event
 * of every turn (from the adapter's `stream`, or synthesised from `generate` when it has none), each call's
 * verdict and result as soon as it settles, each reply, and a final `loop-end`.
 *
 * - Pull-based: the model's stream is read one event at a time, only when the application asks for the
 *   next, so a slow consumer slows the model stream down instead of piling events up.
 * - Stopping early (`break`, `return()`) closes the model stream, aborts the signal the model and the tools
 *   were given, waits for running tools to settle, answers every call of the open turn (a call that had not
 *   settled is journaled as `aborted` and never runs) and resolves `result` with status `aborted`.
 * - `options.signal` ends the stream with a `loop-end` of status `aborted`.
 * - A call cut off by max_tokens or a broken stream is answered as an error result and never run.
 * - A model error yields an `error` event, then the iterator throws it and `result` rejects with it.
 *
 * Throws {@link InvalidLoopOptionsError} at once for invalid options. The model and the tools receive the
 * loop's own signal, which follows `options.signal`.
 */
export function streamLoop<const S extends OutputSchema>(
  options: LoopOptions & { readonly output: OutputOptions<S> },
): LoopStream<InferOutput<S>>;
export function streamLoop(options: LoopOptions): LoopStream;
export function streamLoop(options: LoopOptions): LoopStream {
  checkLoopOptions(options);
  // A fallback list becomes one model here, at once: an invalid list throws before anything starts.
  const one = withOneModel(options);
  const state = startLoopState(options);
  const controller = new AbortController();
  const stop = (): void => {
    if (!controller.signal.aborted)
      controller.abort(new DOMException('the application stopped the loop stream', 'AbortError'));
  };
  let resolveResult: (result: LoopResult) => void = () => {};
  let rejectResult: (error: unknown) => void = () => {};
  const result = new Promise<LoopResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // A consumer that catches the iterator's throw need not also await `result`: no unhandled rejection.
  result.catch(() => {});

  let settled = false;
  // Runs on the first `next()`: nothing is linked or started for a stream that is never read.
  const produce = async (emit: (event: LoopStreamEvent) => Promise<void>): Promise<void> => {
    const outer = options.signal;
    const follow = (): void => controller.abort(outer?.reason);
    if (outer?.aborted === true) follow();
    else outer?.addEventListener('abort', follow, { once: true });
    try {
      // `Object.assign` rather than a spread followed by a new key (slow on Node 20, see `readModelTurn`).
      const run = Object.assign({}, one, { signal: controller.signal });
      // A run with `output` shows its answer as it streams (the output seam).
      const deliver = options.output === undefined ? emit : withPartialOutputs(emit);
      await runCircuit(
        state,
        run,
        streamedTurns,
        (event, until) => {
          // Settled before the event is handed over: a reader that stops at `loop-end` still gets this result.
          if (event.type === 'loop-end') {
            settled = true;
            resolveResult(event.result);
          }
          return deliver(event, until);
        },
        stop,
      );
    } catch (error) {
      if (!(error instanceof LoopStreamStopped)) {
        settled = true;
        rejectResult(error);
      }
      throw error;
    } finally {
      outer?.removeEventListener('abort', follow);
      if (!settled) {
        stop();
        resolveResult(finishLoop(state, 'aborted'));
      }
    }
  };
  // A reader that stops at `loop-end` stops nothing: the run is over.
  const iterator = pullEvents(produce, () => {
    if (!settled) stop();
  });
  return { result, [Symbol.asyncIterator]: () => iterator };
}
