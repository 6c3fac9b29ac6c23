export { dbosEngine } from './dbos/dbos-engine.js';
export {
  createDbosRuns,
  type DbosRuns,
  type DbosRunsOptions,
  type StartRunInput,
} from './dbos/dbos-runs.js';
export { type ExecutorLease, type ExecutorLeaseOptions, startExecutorLease } from './dbos/executor-lease.js';
export {
  type DbosCircuit,
  type DbosCircuitOptions,
  type DbosQueueOptions,
  DEFAULT_QUEUE_NAME,
  DEFAULT_WORKFLOW_NAME,
  registerDbosCircuit,
} from './dbos/register-dbos-circuit.js';
export { type DbosRunState, type DbosRunStatus, followRunState } from './dbos/run-state.js';
export { resumeSegmentId } from './dbos/segment-id.js';
export {
  type DurableCircuit,
  type DurableEngine,
  type DurableRunInput,
  type DurableRunOutcome,
  driveDurableRun,
} from './engine/durable-run.js';
export type { DurableSteps } from './engine/durable-steps.js';
export { type SessionData, sessionData, sessionOf } from './engine/session-data.js';
export { stepModel } from './engine/step-model.js';
export { type StepToolsOptions, stepTools } from './engine/step-tools.js';
export { DbosRunStateError } from './errors/dbos-run-state-error.js';
export { ExecutorLeaseError } from './errors/executor-lease-error.js';
