import { isPromiseLike } from '../async/eventually.js';
import { type RunCostMeter, runCostOf } from '../cost/run-cost-meter.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { Message } from '../messages/messages.js';
import { type ToolCallPart, toolCallsOf } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';
import type { StopCondition, StopContext } from './stop-condition.js';

/** Where stop conditions come from: the run's options. */
export interface StopOptions {
  readonly stopWhen?: StopCondition | readonly StopCondition[];
}

/** What they are checked on: the run's state between two steps. */
export interface RunSoFar {
  readonly runId: string;
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  readonly usage: Usage;
  readonly cost: RunCostMeter;
}

/** The run's stop conditions as a list (`stopWhen` takes one or several). */
export function stopConditionsOf(options: StopOptions): readonly StopCondition[] {
  const { stopWhen } = options;
  if (stopWhen === undefined) return [];
  const list = typeof stopWhen === 'function' ? [stopWhen] : stopWhen;
  if (!Array.isArray(list) || !list.every((condition) => typeof condition === 'function')) {
    throw new InvalidLoopOptionsError(
      'stopWhen',
      'give a stop condition or an array of them (toolCalled, callBudget…).',
    );
  }
  return list;
}

/**
 * The name of the first condition that holds now, if the conversation ends with the reply to the run's last
 * turn (the moment between two steps); `undefined` otherwise. Conditions are asked one after the other.
 */
export async function stopReached(state: RunSoFar, options: StopOptions): Promise<string | undefined> {
  const conditions = stopConditionsOf(options);
  if (conditions.length === 0) return undefined;
  const context = stopContextOf(state);
  if (context === undefined) return undefined;
  for (const condition of conditions) {
    const holds = condition(context);
    if (isPromiseLike(holds) ? await holds : holds) return condition.name === '' ? 'stopWhen' : condition.name;
  }
  return undefined;
}

function stopContextOf(state: RunSoFar): StopContext | undefined {
  const { messages, turns } = state;
  const reply = messages.at(-1);
  const asked = messages.at(-2);
  if (turns.length === 0 || reply?.role !== 'tool' || asked?.role !== 'assistant') return undefined;
  let callCount = 0;
  for (const turn of turns) callCount += toolCallsOf(turn.content).length;
  const calls: readonly ToolCallPart[] = toolCallsOf(asked.content);
  return {
    runId: state.runId,
    turn: turns.length,
    messages: [...messages],
    turns: [...turns],
    usage: state.usage,
    cost: runCostOf(state.cost),
    calls,
    results: reply.content,
    callCount,
  };
}
