import type { ConfirmationMode, ExecutionContext } from '../execute/execution-context.js';
import type { ToolDeclaration } from '../messages/model.js';
import { runOutputOf } from '../output/run-output.js';
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

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * What the executor needs from the loop's options for the calls of one turn. Made once per turn, by
 * assignment rather than a spread of `{}` or `{ key }` per option: no throw-away object per option and turn.
 */
export function executionContext(
  options: Omit<LoopOptions, 'messages'>,
  runId: string,
  turn: number,
  confirmation: ConfirmationMode,
  provenance?: RunProvenance,
  step?: StepScope,
  loadedTools?: LoadedTools,
): ExecutionContext {
  const context: Writable<ExecutionContext> = {
    catalogue: options.catalogue,
    session: options.session,
    runId,
    turn,
    confirmation,
  };
  if (options.journal !== undefined) context.journal = options.journal;
  if (options.signal !== undefined) context.signal = options.signal;
  if (options.toolTimeoutMs !== undefined) context.timeoutMs = options.toolTimeoutMs;
  if (options.resultLimits !== undefined) context.resultLimits = options.resultLimits;
  const beforeRun = options.hooks?.beforeToolRun;
  if (beforeRun !== undefined) context.beforeRun = beforeRun;
  if (provenance !== undefined) context.provenance = provenance;
  if (loadedTools !== undefined) context.loadedTools = loadedTools;
  if (options.repairToolCall !== undefined) context.repair = options.repairToolCall;
  if (step?.active !== undefined) context.activeTools = step.active;
  if (step !== undefined) context.tools = step.tools;
  if (step?.plan !== undefined) context.step = step.plan;
  if (options.output !== undefined) context.outputSchemaDigest = runOutputOf(options.output).schemaDigest;
  return context;
}
