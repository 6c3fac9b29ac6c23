import type { ConfirmationMode, ExecutionContext } from '../execute/execution-context.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import type { LoadedTools } from './loaded-tools.js';
import type { LoopOptions } from './loop-options.js';

/** What the executor needs from the loop's options for the calls of one turn. */
export function executionContext(
  options: Omit<LoopOptions, 'messages'>,
  runId: string,
  turn: number,
  confirmation: ConfirmationMode,
  provenance?: RunProvenance,
  loadedTools?: LoadedTools,
): ExecutionContext {
  return {
    catalogue: options.catalogue,
    session: options.session,
    runId,
    turn,
    confirmation,
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.toolTimeoutMs === undefined ? {} : { timeoutMs: options.toolTimeoutMs }),
    ...(options.resultLimits === undefined ? {} : { resultLimits: options.resultLimits }),
    ...(options.hooks?.beforeToolRun === undefined ? {} : { beforeRun: options.hooks.beforeToolRun }),
    ...(provenance === undefined ? {} : { provenance }),
    ...(loadedTools === undefined ? {} : { loadedTools }),
  };
}
