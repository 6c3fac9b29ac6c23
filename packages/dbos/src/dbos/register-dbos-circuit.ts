import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  type DurableCircuit,
  type DurableRunInput,
  type DurableRunOutcome,
  driveDurableRun,
} from '../engine/durable-run.js';
import { dbosEngine } from './dbos-engine.js';

/** The default workflow and queue names; every worker and client of a pool must agree on them. */
export const DEFAULT_WORKFLOW_NAME = 'toolcircuit.run';
export const DEFAULT_QUEUE_NAME = 'toolcircuit-runs';

export interface DbosQueueOptions {
  /** Default `toolcircuit-runs`. */
  readonly name?: string;
  /** Runs in progress at once across all workers (DBOS `globalConcurrency`). Default: no limit. */
  readonly globalConcurrency?: number;
  /** Runs in progress at once on one worker process (DBOS `workerConcurrency`). Default: no limit. */
  readonly workerConcurrency?: number;
  /** How often a worker looks for queued runs, at least (DBOS `minPollingIntervalMs`). Default 1000. */
  readonly pollingIntervalMs?: number;
}

export interface DbosCircuitOptions extends DurableCircuit {
  /** Default `toolcircuit.run`. */
  readonly workflowName?: string;
  readonly queue?: DbosQueueOptions;
}

export interface DbosCircuit {
  readonly workflowName: string;
  readonly queueName: string;
  /**
   * Writes the queue and its limits to the system database (after `DBOS.launch()`), where every worker
   * reads them: `globalConcurrency` holds across the whole pool.
   */
  registerQueue(): Promise<void>;
  /** The registered workflow, to start a run in this process without a queue (tests, scripts). */
  readonly workflow: (input: DurableRunInput) => Promise<DurableRunOutcome>;
}

/**
 * Registers the circuit as a DBOS workflow. Call it before `DBOS.launch()`, in every worker process, with
 * the same model, catalogue and names: a run started by one worker may be recovered by another.
 */
export function registerDbosCircuit(options: DbosCircuitOptions): DbosCircuit {
  const { workflowName = DEFAULT_WORKFLOW_NAME, queue = {}, ...circuit } = options;
  const queueName = queue.name ?? DEFAULT_QUEUE_NAME;
  const workflow = DBOS.registerWorkflow(
    async (input: DurableRunInput): Promise<DurableRunOutcome> => driveDurableRun(input, dbosEngine(), circuit),
    { name: workflowName },
  );
  return {
    workflowName,
    queueName,
    workflow,
    async registerQueue() {
      await DBOS.registerQueue(queueName, {
        ...(queue.globalConcurrency === undefined ? {} : { globalConcurrency: queue.globalConcurrency }),
        ...(queue.workerConcurrency === undefined ? {} : { workerConcurrency: queue.workerConcurrency }),
        ...(queue.pollingIntervalMs === undefined ? {} : { minPollingIntervalMs: queue.pollingIntervalMs }),
      });
    },
  };
}
