import { withOneModel } from '../fallback/one-model.js';
import type { InferOutput, OutputOptions, OutputSchema } from '../output/output-options.js';
import { checkLoopOptions } from './check-loop-options.js';
import { runCircuit } from './circuit.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopResult } from './loop-result.js';
import { type LoopState, startLoopState } from './loop-state.js';
import { generatedTurns } from './turn-source.js';

/**
 * The circuit: ask the model, run its calls through the executor, send back one reply holding exactly one
 * result per call (in call order, paired by id), and ask again, until the model answers without calls or
 * `maxTurns` is reached. The model never runs anything itself; whatever it asks, the pairing holds.
 */
export function runLoop<const S extends OutputSchema>(
  options: LoopOptions & { readonly output: OutputOptions<S> },
): Promise<LoopResult<InferOutput<S>>>;
export function runLoop(options: LoopOptions): Promise<LoopResult>;
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  checkLoopOptions(options);
  return driveLoop(startLoopState(options), options);
}

/** Turns until done, with `generate`. Shared by `runLoop` and `resumeLoop`; `streamLoop` runs the same loop. */
export function driveLoop(state: LoopState, options: Omit<LoopOptions, 'messages'>): Promise<LoopResult> {
  return runCircuit(state, withOneModel(options), generatedTurns);
}
