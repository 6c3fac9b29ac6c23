import type { AnyToolDefinition, Catalogue, CatalogueEntry, ToolContext, ToolOutput } from '@toolcircuit/core';
import type { DurableSteps } from './durable-steps.js';

/** What a tool step records. `unknown`: an earlier execution started the call and stopped before its result. */
type ToolStepRecord =
  | { readonly kind: 'output'; readonly output?: ToolOutput }
  | { readonly kind: 'threw'; readonly name: string; readonly message: string }
  | { readonly kind: 'unknown' };

export interface StepToolsOptions {
  /**
   * Calls to reversible tools that a stopped worker had started are run again instead of being reported
   * unknown (the engine's plain "at least once"). Default false: every tool call runs at most once.
   */
  readonly rerunStartedReversibleCalls?: boolean;
  /** Told of each call answered "outcome unknown" (on the execution that decided it, and on replays). */
  readonly onUnknownOutcome?: (context: ToolContext) => void;
}

/**
 * The catalogue with every tool's `run` made durable; the four checks, validation and journaling stay
 * core's. Each call is two steps: "started" records this execution's id before the tool is invoked, then
 * the tool runs as a step that records its output. On a replay, a call whose output is recorded is not run
 * again; a call whose "started" step holds another execution's id (a worker died while it ran) is not run
 * again either: it is answered "outcome unknown", because nobody can tell whether its side effect happened.
 */
export function stepTools(catalogue: Catalogue, steps: DurableSteps, options: StepToolsOptions = {}): Catalogue {
  const entries = new Map<string, CatalogueEntry>();
  for (const name of catalogue.names) {
    const entry = catalogue.get(name);
    if (entry !== undefined) entries.set(name, { ...entry, definition: durableTool(entry.definition, steps, options) });
  }
  return {
    declarations: catalogue.declarations,
    names: catalogue.names,
    get: (name) => entries.get(name),
    validate: (name, input) => catalogue.validate(name, input),
  };
}

function durableTool(definition: AnyToolDefinition, steps: DurableSteps, options: StepToolsOptions): AnyToolDefinition {
  const atMostOnce = definition.irreversible || options.rerunStartedReversibleCalls !== true;
  const run = async (input: never, context: ToolContext): Promise<ToolOutput> => {
    const key = `${context.turn}:${context.callId}`;
    const startedBy = atMostOnce
      ? await steps.run(`tool-start:${definition.name}`, async () => ({ executionId: steps.executionId, key }))
      : undefined;
    const record = await steps.run<ToolStepRecord>(`tool:${definition.name}`, async (cancelled) => {
      if (startedBy !== undefined && startedBy.executionId !== steps.executionId) return { kind: 'unknown' };
      // The tool stops on the loop's signal (its timeout) and on the engine's (the run cancelled or timed out).
      const signal = cancelled === undefined ? context.signal : AbortSignal.any([context.signal, cancelled]);
      try {
        const output = await definition.run(input, { ...context, signal });
        return output === undefined ? { kind: 'output' } : { kind: 'output', output };
      } catch (error) {
        if (error instanceof Error) return { kind: 'threw', name: error.name, message: error.message };
        return { kind: 'threw', name: 'Error', message: String(error) };
      }
    });
    if (record.kind === 'output') return record.output;
    if (record.kind === 'unknown') {
      options.onUnknownOutcome?.(context);
      return { isError: true, content: unknownOutcomeText(definition.name, context) };
    }
    const error = new Error(record.message);
    error.name = record.name;
    throw error;
  };
  return { ...definition, run };
}

function unknownOutcomeText(toolName: string, context: ToolContext): string {
  return (
    `The outcome of this call to "${toolName}" is unknown: the worker running it stopped after it started and ` +
    'before its result was recorded, so it may or may not have taken effect. It was not run again, so that it ' +
    `cannot happen twice. Do not call it again; tell the user it must be checked (run ${context.runId}, call ${context.callId}).`
  );
}
