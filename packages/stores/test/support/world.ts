// A small world for durable-run tests: a reversible lookup, an irreversible transfer that counts its real
// executions, a session, and scripted models for the process that starts a run and the one that resumes it.
import {
  type AnyToolDefinition,
  type ConfirmationDecision,
  type ConfirmationStore,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type PausedRun,
  type Session,
  type ToolMessage,
} from '@toolcircuit/core';
import { createScriptedModel, type ScriptedStep, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import {
  createDurableRunner,
  type DurableRunner,
  type DurableRunnerOptions,
  type DurableStore,
} from '../../src/index.js';

export const user: Message[] = [{ role: 'user', content: 'Pay 10 to Bob, and look up case A-1234.' }];

export function lookupTool() {
  return defineTool({
    name: 'lookup_case',
    description: 'Look up a case file by number.',
    inputSchema: {
      type: 'object',
      properties: { number: { type: 'string' } },
      required: ['number'],
      additionalProperties: false,
    },
    right: everySession,
    run: ({ number }) => ({ number, status: 'open' }),
  });
}

/** An irreversible transfer; every real execution is pushed to `executions`. */
export function transferTool(executions: unknown[], name = 'transfer') {
  return defineTool({
    name,
    description: 'Transfer money. Irreversible.',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 }, to: { type: 'string' } },
      required: ['amount', 'to'],
      additionalProperties: false,
    },
    right: 'payments:write',
    irreversible: true,
    run: (input) => {
      executions.push(input);
      return `sent ${input.amount} to ${input.to}`;
    },
  });
}

export function worldCatalogue(executions: unknown[], extra: readonly AnyToolDefinition[] = []) {
  return createCatalogue([lookupTool(), transferTool(executions), ...extra]);
}

export function marie(confirmations?: ConfirmationStore): Session {
  return createSession({
    id: 'session-7',
    humanId: 'marie',
    rights: ['payments:write'],
    ...(confirmations === undefined ? {} : { confirmations }),
  });
}

/** The first turn: a lookup and a transfer in one turn. */
export function pausingTurn() {
  return toolCallsTurn([
    { id: 'lookup', name: 'lookup_case', input: { number: 'A-1234' } },
    { id: 'pay', name: 'transfer', input: { amount: 10, to: 'bob' } },
  ]);
}

export interface World {
  readonly executions: unknown[];
  readonly runner: (
    store: DurableStore,
    steps: readonly ScriptedStep[],
    extra?: Partial<DurableRunnerOptions>,
  ) => DurableRunner;
}

export function world(): World {
  const executions: unknown[] = [];
  const catalogue = worldCatalogue(executions);
  return {
    executions,
    runner: (store, steps, extra = {}) =>
      createDurableRunner({ store, catalogue, model: createScriptedModel(steps), ...extra }),
  };
}

/** Starts a run that pauses on the transfer; returns its paused state. */
export async function startPaused(w: World, store: DurableStore, runId = 'run-1'): Promise<PausedRun> {
  const result = await w.runner(store, [pausingTurn()]).start({ session: marie(), messages: user, runId });
  if (result.paused === undefined) throw new Error(`expected a paused run, got ${result.status}`);
  return result.paused;
}

export function approveAll(paused: PausedRun): ConfirmationDecision[] {
  return paused.pending.map((pending) => ({
    callId: pending.callId,
    approved: true,
    inputDigest: pending.inputDigest,
  }));
}

export function toolReplies(messages: readonly Message[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => message.role === 'tool');
}

export const done = textTurn('Done: 10 sent to Bob, case A-1234 is open.');
