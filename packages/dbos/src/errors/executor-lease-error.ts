import { ToolcircuitError } from '@toolcircuit/core';

/** `startExecutorLease` cannot start: DBOS is not launched, the worker has no id of its own, or the timings do not fit. */
export class ExecutorLeaseError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'dbos_executor_lease' as const;

  constructor(problemAndFix: string) {
    super(`The executor lease was not started: ${problemAndFix}`);
  }
}
