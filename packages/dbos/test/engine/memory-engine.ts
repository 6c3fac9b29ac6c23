import { randomUUID } from 'node:crypto';
import type { DurableEngine, DurableRunOutcome } from '../../src/index.js';

/** Recorded steps of one segment, shared by its executions, as an engine's database would keep them. */
export type StepLog = { name: string; value: unknown }[];

/**
 * Where an execution "dies": when the step named `step` (its `occurrence`-th one, 1-based) has run its
 * function, `phase: 'after-run'` stops before the result is recorded; `phase: 'before-run'` stops before
 * the function runs at all. The execution then hangs forever, as a killed process would never go on.
 */
export interface Death {
  readonly step: string;
  readonly occurrence?: number;
  readonly phase: 'before-run' | 'after-run';
}

/**
 * An in-memory engine with a real engine's replay rule: a recorded step returns its record, in order, and a
 * step met in another order than recorded is an error. Each call is one execution (a fresh execution id).
 */
export function memoryEngine(
  segment: string,
  log: StepLog,
  outcomes: ReadonlyMap<string, DurableRunOutcome>,
  death?: Death,
): DurableEngine {
  let position = 0;
  const seen = new Map<string, number>();
  return {
    segment,
    steps: {
      executionId: randomUUID(),
      async run<T>(name: string, fn: () => Promise<T>): Promise<T> {
        const index = position++;
        const recorded = log[index];
        if (recorded !== undefined) {
          if (recorded.name !== name) throw new Error(`step ${index} was "${recorded.name}", now "${name}"`);
          return structuredClone(recorded.value) as T;
        }
        const occurrence = (seen.get(name) ?? 0) + 1;
        seen.set(name, occurrence);
        const dies = death !== undefined && death.step === name && (death.occurrence ?? 1) === occurrence;
        if (dies && death.phase === 'before-run') return new Promise<T>(() => undefined);
        const value = await fn();
        if (dies) return new Promise<T>(() => undefined);
        log[index] = { name, value: JSON.parse(JSON.stringify(value ?? null)) };
        return value;
      },
    },
    async previousOutcome(previous) {
      const outcome = outcomes.get(previous);
      if (outcome === undefined) throw new Error(`no segment ${previous}`);
      return outcome;
    },
  };
}

/** Lets an abandoned ("killed") execution reach the point where it hangs. */
export async function settle(): Promise<void> {
  for (let index = 0; index < 20; index += 1) await new Promise((resolve) => setImmediate(resolve));
}
