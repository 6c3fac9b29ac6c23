import { withOneModel } from '../fallback/one-model.js';
import type { InferOutput, OutputOptions, OutputSchema } from '../output/output-options.js';
import { checkLoopOptions } from './check-loop-options.js';
import { runCircuit } from './circuit.js';
import { emitterOf, type LoopEventListener } from './event-listener.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopResult } from './loop-result.js';
import { type LoopState, startLoopState } from './loop-state.js';
import { generatedTurns, streamedTurns } from './turn-source.js';

/**
 * The circuit: ask the model, run its calls through the executor, send back one reply holding exactly one
 * result per call (in call order, paired by id), and ask again, until the model answers without calls or
 * `maxTurns` is reached. The model never runs anything itself; whatever it asks, the pairing holds.
 */
export function runLoop<const S extends OutputSchema>(
  options: LoopOptions & LoopEventListener & { readonly output: OutputOptions<S> },
): Promise<LoopResult<InferOutput<S>>>;
export function runLoop(options: LoopOptions & LoopEventListener): Promise<LoopResult>;
export async function runLoop(options: LoopOptions & LoopEventListener): Promise<LoopResult> {
  checkLoopOptions(options);
  return driveLoop(startLoopState(options), options);
}

/**
 * Turns until done, with `generate` (or the model's stream, for an `onEvent` listener). Shared by `runLoop`,
 * `resumeLoop` and `continueLoop`; `streamLoop` runs the same loop.
 */
export function driveLoop(
  state: LoopState,
  options: Omit<LoopOptions, 'messages'> & LoopEventListener,
): Promise<LoopResult> {
  // With a listener the turns are read as `streamLoop` reads them, so it gets the model's own events too.
  const emit = emitterOf(options.onEvent, options.output !== undefined);
  if (emit === undefined) return runCircuit(state, withOneModel(options), generatedTurns);
  return runCircuit(state, withOneModel(options), streamedTurns, emit);
}
