import { invalidOrderInput, orderInput } from './order-tool.js';

/** One cell of the matrix: K calls per step, S steps, a catalogue of T tools. */
export interface Scenario {
  readonly calls: number;
  readonly steps: number;
  readonly tools: number;
}

/** A call as the model emits it: arguments are JSON text, as on every provider's wire. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly toolName: string;
  readonly arguments: string;
}

/**
 * The scripted conversation every system plays: `steps` turns of `calls` tool calls each, then one text
 * answer. Built once per scenario and shared read-only, so every system is handed the very same strings.
 */
export interface Script {
  readonly scenario: Scenario;
  readonly userText: string;
  readonly toolNames: readonly string[];
  readonly turns: readonly (readonly ScriptedToolCall[])[];
  readonly finalText: string;
  /** Calls whose input breaks the schema (only in smoke tests): every system must refuse them. */
  readonly invalidCalls: number;
}

export interface ScriptOptions {
  /** `step:call` positions (0-based) that get an invalid input, to prove validation is on. */
  readonly invalidAt?: readonly string[];
}

export const FINAL_TEXT = 'You have two open orders.';

export function toolNamesFor(tools: number): string[] {
  if (tools === 1) return ['look_up_orders'];
  return Array.from({ length: tools }, (_, index) => `look_up_orders_${String(index).padStart(3, '0')}`);
}

export function createScript(scenario: Scenario, options: ScriptOptions = {}): Script {
  const toolNames = toolNamesFor(scenario.tools);
  const invalid = new Set(options.invalidAt ?? []);
  const turns: ScriptedToolCall[][] = [];
  let invalidCalls = 0;
  for (let step = 0; step < scenario.steps; step += 1) {
    const calls: ScriptedToolCall[] = [];
    for (let call = 0; call < scenario.calls; call += 1) {
      const seed = step * scenario.calls + call;
      const bad = invalid.has(`${step}:${call}`);
      if (bad) invalidCalls += 1;
      calls.push({
        id: `call_${step}_${call}`,
        toolName: toolNames[seed % toolNames.length] ?? 'look_up_orders',
        arguments: JSON.stringify(bad ? invalidOrderInput() : orderInput(seed)),
      });
    }
    turns.push(calls);
  }
  return {
    scenario,
    userText: 'Which of my orders are still open?',
    toolNames,
    turns,
    finalText: FINAL_TEXT,
    invalidCalls,
  };
}

export function scenarioLabel(scenario: Scenario): string {
  return `K=${scenario.calls} S=${scenario.steps} T=${scenario.tools}`;
}
