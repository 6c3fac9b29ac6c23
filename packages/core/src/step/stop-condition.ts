import type { RunCost } from '../cost/run-cost.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { Message, ToolCallPart, ToolResultPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';

/** What a stop condition is shown once a step's reply is in the conversation. */
export interface StopContext {
  readonly runId: string;
  /** The 1-based turn whose reply was just added. */
  readonly turn: number;
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  /** Summed over every turn of the run (a resumed run's included). */
  readonly usage: Usage;
  /** What the run cost so far, each turn at the model that answered it (as `LoopResult.cost`). */
  readonly cost: RunCost;
  /** The calls of the step just answered, and their results in the same order. */
  readonly calls: readonly ToolCallPart[];
  readonly results: readonly ToolResultPart[];
  /** Every call the model made in the run so far, answered or not. */
  readonly callCount: number;
}

/**
 * Ends the run (status `stopped`, `stoppedBy` its name) before the next model call when it holds. Checked
 * after every reply, a resumed run's included; `maxTurns` still applies. A throw stops the run (it is the
 * application's code).
 */
export interface StopCondition {
  readonly name: string;
  (context: StopContext): boolean | Promise<boolean>;
}

/** Names a predicate so the result (`stoppedBy`), the trace and the journal say which condition held. */
export function stopCondition(
  name: string,
  holds: (context: StopContext) => boolean | Promise<boolean>,
): StopCondition {
  const condition = (context: StopContext) => holds(context);
  return Object.defineProperty(condition, 'name', { value: name }) as StopCondition;
}

/**
 * The step just answered ran `toolName` and it succeeded (a result that is not an error). A refused call,
 * a failure or a call held for confirmation does not count: the run goes on so the model can act on it.
 */
export function toolCalled(toolName: string): StopCondition {
  return stopCondition(`toolCalled(${toolName})`, ({ calls, results }) =>
    calls.some(
      (call, index) =>
        call.name === toolName && results[index]?.callId === call.id && results[index]?.isError === false,
    ),
  );
}

/** The model has made `maxCalls` tool calls or more in the run (refused ones included: each cost a step). */
export function callBudget(maxCalls: number): StopCondition {
  checkBudget('callBudget', maxCalls);
  return stopCondition(`callBudget(${maxCalls})`, ({ callCount }) => callCount >= maxCalls);
}

/**
 * The run has used `maxTokens` tokens or more: the providers' total where they report one, else input plus
 * output. Checked between steps, so one step may overshoot it; a turn that reported no usage counts as 0.
 */
export function tokenBudget(maxTokens: number): StopCondition {
  checkBudget('tokenBudget', maxTokens);
  return stopCondition(`tokenBudget(${maxTokens})`, ({ usage }) => tokensOf(usage) >= maxTokens);
}

function tokensOf(usage: Usage): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

function checkBudget(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) {
    throw new InvalidLoopOptionsError(`stopWhen: ${name}`, `got ${String(value)}; use a whole number, 1 or more.`);
  }
}
