import type { Script } from '../scenario/scenario.js';

/** What one timed run of a scripted conversation leaves behind. */
export interface RunRecord {
  /** Wall time of the whole conversation, from the call into the system to its answer. */
  readonly totalMs: number;
  /**
   * `performance.now()` each time the system asked its model (steps + 1 entries). The gap between two
   * entries is one step: the system's handling of a turn's calls and the building of the next request.
   */
  readonly stepStarts: readonly number[];
  /** How many times the tool ran (the valid calls only, when validation is really on). */
  readonly toolRuns: number;
  readonly finalText: string;
}

/** A system set up for one script (catalogue, tools, model built once, as an application would). */
export interface PreparedRun {
  run(): Promise<RunRecord>;
}

export type SystemId = 'toolcircuit' | 'ai' | 'openai-agents' | 'hand-written';

export interface BenchSystem {
  readonly id: SystemId;
  readonly label: string;
  /** How validation is on in this system, for the report. */
  readonly validation: string;
  prepare(script: Script): Promise<PreparedRun>;
}

/** Records the model's invocations; shared by every system's fake model so all stamp the same way. */
export class StepClock {
  readonly stamps: number[] = [];

  stamp(): number {
    const index = this.stamps.length;
    this.stamps.push(performance.now());
    return index;
  }

  reset(): void {
    this.stamps.length = 0;
  }
}
