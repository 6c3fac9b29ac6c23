// Runs for the fault tests: each run's one turn makes two calls of a tool that counts its real executions
// (by key) and takes a little while, then the model answers. What every fault test checks afterwards:
// every run finished, no call ran twice, no known result was reported unknown, the journal verifies.
import { createCatalogue, createSession, defineTool, everySession, type Session } from '@toolcircuit/core';
import {
  createDurableRunner,
  type DurableRunner,
  type DurableRunnerOptions,
  type DurableStore,
} from '../../src/index.js';
import { faultModel } from './fault-model.mjs';

export const faultSession: Session = createSession({ id: 'session-faults', humanId: 'olga', rights: [] });

export interface FaultWorld {
  /** Real executions of the tool, by key (`<runId>/a`, `<runId>/b`). */
  readonly executions: Map<string, number>;
  runner(store: DurableStore, options?: Partial<DurableRunnerOptions>): DurableRunner;
}

export interface FaultWorldOptions {
  /** How long each execution takes. */
  readonly toolMs?: number;
  /** What else an execution does: a fault to inject at that moment. */
  readonly onRun?: (key: string) => Promise<void>;
  /** The tool's answer for a key (default `noted <key>`). */
  readonly output?: (key: string) => string;
}

export function faultWorld(options: FaultWorldOptions = {}): FaultWorld {
  const { toolMs = 0, onRun, output = (key) => `noted ${key}` } = options;
  const executions = new Map<string, number>();
  const note = defineTool({
    name: 'note',
    description: 'Writes a note. Counts each real execution.',
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string' } },
      required: ['key'],
      additionalProperties: false,
    },
    right: everySession,
    run: async ({ key }) => {
      executions.set(key, (executions.get(key) ?? 0) + 1);
      if (toolMs > 0) await new Promise((resolve) => setTimeout(resolve, toolMs));
      await onRun?.(key);
      return output(key);
    },
  });
  const catalogue = createCatalogue([note]);
  return {
    executions,
    runner: (store, options = {}) =>
      createDurableRunner({
        store,
        catalogue,
        model: faultModel('note'),
        ...options,
      }),
  };
}

/** Starts a run whose model writes two notes under its id. */
export function startFaultRun(runner: DurableRunner, runId: string) {
  return runner.start({ session: faultSession, messages: [{ role: 'user', content: `run id: ${runId}` }], runId });
}

/** What must hold after any fault: counted over the runs given. */
export async function audit(store: DurableStore, world: FaultWorld, runIds: readonly string[]) {
  const statuses: Record<string, number> = {};
  let unknown = 0;
  for (const runId of runIds) {
    const record = await store.getRun(runId);
    const status = record?.status ?? 'missing';
    statuses[status] = (statuses[status] ?? 0) + 1;
    unknown += record?.calls.filter((call) => call.state === 'unknown').length ?? 0;
  }
  const doubles = [...world.executions.values()].filter((count) => count > 1).length;
  return { statuses, unknown, doubles, verified: (await store.verifyJournal()).ok };
}
