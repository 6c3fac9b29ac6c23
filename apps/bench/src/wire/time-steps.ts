import type { Message } from '@toolcircuit/core';
import { collectGarbage } from '../measure/collect-garbage.js';
import { median } from '../measure/stats.js';

/** One request path under test, for a whole history: builds (a model: also sends) the request. */
export interface StepUnderTest<R> {
  run(messages: readonly Message[]): R | Promise<R>;
  /** The body's size in bytes, from what `run` gave; called outside the timed part. */
  bytesOf(result: R): number;
}

export interface StepTiming {
  readonly minSamples: number;
  readonly maxSamples: number;
  /** Sampling stops after this long once `minSamples` are in, per history point. */
  readonly budgetMs: number;
}

export interface TimedStep {
  /** Steps in the request: the earlier ones, and the new one. */
  readonly historySteps: number;
  readonly bodyBytes: number;
  /** Median over the samples. */
  readonly us: number;
  readonly samples: number;
}

/**
 * The cost of step `n` as the loop really makes it: the n - 1 earlier steps already sent (converted, their text
 * cached), and one new step appended as fresh assistant and tool Message objects, as the loop appends them.
 * Before each sample the earlier history is run alone, untimed, which leaves every cache as the step before
 * leaves it on a real run (the adapters keep the joined text of the leading history sent last). Timing the same
 * fully cached history over and over would time a state no real step is in.
 *
 * `history` is a played conversation: the user message, then per step an assistant turn and its tool reply.
 */
export async function timeSteps<R>(
  step: StepUnderTest<R>,
  history: readonly Message[],
  points: readonly number[],
  timing: StepTiming,
): Promise<TimedStep[]> {
  const timed: TimedStep[] = [];
  for (const steps of points) {
    const earlier = history.slice(0, 1 + 2 * (steps - 1));
    const newStep = history.slice(1 + 2 * (steps - 1), 1 + 2 * steps);
    if (steps < 1 || newStep.length < 2) throw new Error(`the played history has no step ${steps}`);
    // Copies made before the clock starts: on a real run the loop makes these objects, not the request path.
    const withNewStep = (): Message[] => [...earlier, ...newStep.map((message) => structuredClone(message))];
    for (let warmUp = 0; warmUp < 3; warmUp += 1) {
      await step.run(earlier);
      await step.run(withNewStep());
    }
    const samples: number[] = [];
    let bodyBytes = 0;
    const deadline = performance.now() + timing.budgetMs;
    while (samples.length < timing.minSamples || (samples.length < timing.maxSamples && performance.now() < deadline)) {
      await step.run(earlier);
      const messages = withNewStep();
      collectGarbage();
      const started = performance.now();
      const result = await step.run(messages);
      samples.push((performance.now() - started) * 1000);
      bodyBytes = step.bytesOf(result);
    }
    timed.push({ historySteps: steps, bodyBytes, us: median(samples), samples: samples.length });
  }
  return timed;
}
