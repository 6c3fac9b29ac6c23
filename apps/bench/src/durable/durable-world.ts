import {
  type Catalogue,
  createCatalogue,
  createSession,
  defineTool,
  type Message,
  type Model,
  type ModelTurn,
  type Session,
  type ToolCallPart,
  type ToolContext,
} from '@toolcircuit/core';

/** K transfer calls per turn, S turns, then a text answer. */
export interface DurableScenario {
  readonly calls: number;
  readonly turns: number;
}

export const TRANSFER_RIGHT = 'payments:write';
export const USER_TEXT = 'Pay each supplier on the list.';
export const FINAL_TEXT = 'Every supplier is paid.';

/** The arguments of call `call` of turn `turn` (0-based): the same strings for the floor and the runner. */
export function transferInput(turn: number, call: number): { amount: number; to: string } {
  return { amount: 10 + turn * 100 + call, to: `supplier-${turn}-${call}` };
}

export const transferSchema = {
  type: 'object',
  properties: { amount: { type: 'integer', minimum: 1 }, to: { type: 'string' } },
  required: ['amount', 'to'],
  additionalProperties: false,
} as const;

/**
 * The tool both systems run: asynchronous, as real payments are, answering in a later macrotask (what a
 * network reply does), with nothing else to wait for so that the figure is the loop's and the database's.
 */
export async function sendTransfer(input: { amount: number; to: string }): Promise<string> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return `sent ${input.amount} to ${input.to}`;
}

/**
 * `irreversible`: every call waits for a human's confirmation (the companion scenario). Without it the
 * same tool runs at once (the goal's scenario): the durable runner still starts each call under a start
 * record of a stored turn and commits its outcome, as the floor does.
 */
export function durableCatalogue(options: {
  readonly irreversible: boolean;
  /** Told of each execution before the transfer is sent (the server phase counts and stamps them). */
  readonly onRun?: (context: ToolContext) => void;
}): Catalogue {
  return createCatalogue([
    defineTool({
      name: 'transfer',
      description: 'Transfer money to a supplier.',
      inputSchema: transferSchema,
      right: TRANSFER_RIGHT,
      irreversible: options.irreversible,
      run: (input, context) => {
        options.onRun?.(context);
        return sendTransfer(input);
      },
    }),
  ]);
}

export function durableSession(): Session {
  return createSession({ id: 'bench-session', humanId: 'bench-human', rights: [TRANSFER_RIGHT] });
}

export const userMessages: readonly Message[] = [{ role: 'user', content: USER_TEXT }];

/** The model's turn `turn` (0-based): K transfers, or the final text after the last turn. */
export function scriptedTurn(scenario: DurableScenario, turn: number): ModelTurn {
  if (turn >= scenario.turns) {
    return {
      content: [{ type: 'text', text: FINAL_TEXT }],
      stopReason: { unified: 'end_turn', raw: 'end_turn' },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
  }
  const content: ToolCallPart[] = [];
  for (let call = 0; call < scenario.calls; call += 1) {
    content.push({ type: 'tool_call', id: `t${turn}c${call}`, name: 'transfer', input: transferInput(turn, call) });
  }
  return {
    content,
    stopReason: { unified: 'tool_calls', raw: 'tool_calls' },
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
}

/**
 * A stateless scripted model: the turn it plays is the number of tool replies in the request, so a run
 * resumed in another call (or another process) gets the next turn, as from a real provider.
 */
export function durableModel(scenario: DurableScenario): Model {
  return {
    provider: 'bench',
    modelId: 'bench-durable',
    generate: async (request) => {
      let replies = 0;
      for (const message of request.messages) if (message.role === 'tool') replies += 1;
      return scriptedTurn(scenario, replies);
    },
  };
}
