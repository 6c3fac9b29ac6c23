import type { Script } from '../scenario/scenario.js';
import type { ToolMode } from './tool-mode.js';

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

export type SystemId = 'toolcircuit' | 'ai' | 'ai7' | 'openai-agents' | 'hand-written';

/**
 * One system in one configuration, as plain data: what a child process is told to load, and how a goal
 * finds its figure among a cell's results. Options a system does not have are ignored by it.
 */
export interface SystemSpec {
  readonly id: SystemId;
  /** Default `sync`. */
  readonly tool?: ToolMode;
  /** toolcircuit: journal every attempt in an `InMemoryJournal`. */
  readonly journal?: boolean;
  /** toolcircuit: `zod` declares the tool with a Zod 4 schema instead of JSON Schema. */
  readonly schema?: 'json' | 'zod';
  /** toolcircuit: `stream` runs `streamLoop` and reads every event. */
  readonly loop?: 'run' | 'stream';
}

export interface BenchSystem {
  readonly id: SystemId;
  readonly label: string;
  readonly spec: SystemSpec;
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

/** Whether `spec` names this configuration (defaults filled in: sync tool, JSON Schema, runLoop, no journal). */
export function sameSpec(a: SystemSpec, b: SystemSpec): boolean {
  return (
    a.id === b.id &&
    (a.tool ?? 'sync') === (b.tool ?? 'sync') &&
    (a.journal ?? false) === (b.journal ?? false) &&
    (a.schema ?? 'json') === (b.schema ?? 'json') &&
    (a.loop ?? 'run') === (b.loop ?? 'run')
  );
}
