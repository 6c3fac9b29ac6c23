import type { ConfirmationMode, ExecutionContext } from '../execute/execution-context.js';
import type { ToolDeclaration } from '../messages/model.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import type { StepPlan } from '../step/step-settings.js';
import type { LoadedTools } from './loaded-tools.js';
import type { LoopOptions } from './loop-options.js';

/**
 * What the step's plan offered: the executor refuses calls to tools it left out and journals the plan. The
 * loaded tools are passed beside it: a search may load more during the step (the provider's own, mid-turn).
 */
export interface StepScope {
  readonly active: ReadonlySet<string> | undefined;
  readonly tools: readonly ToolDeclaration[];
  readonly plan: StepPlan | undefined;
}

/** What the executor needs from the loop's options for the calls of one turn. */
export function executionContext(
  options: Omit<LoopOptions, 'messages'>,
  runId: string,
  turn: number,
  confirmation: ConfirmationMode,
  provenance?: RunProvenance,
  step?: StepScope,
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
    ...(options.repairToolCall === undefined ? {} : { repair: options.repairToolCall }),
    ...(step?.active === undefined ? {} : { activeTools: step.active }),
    ...(step === undefined ? {} : { tools: step.tools }),
    ...(step?.plan === undefined ? {} : { step: step.plan }),
  };
}
