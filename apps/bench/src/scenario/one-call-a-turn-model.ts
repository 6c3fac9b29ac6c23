import type { Model, ModelRequest, ModelTurn, Usage } from '@toolcircuit/core';

/** An in-process model that asks for one tool call a turn, then answers: no adapter, no SDK, no socket. */
export interface OneCallATurnModel extends Model {
  /** How many requests it was asked. */
  asked(): number;
}

/**
 * Calls `toolName` with `inputOf(n)` on requests 1…`turns`, then answers "done"; each turn reports `usage`.
 * `beforeTurn` runs first on each request (a floor's work done inside the model, over the same requests).
 */
export function oneCallATurnModel(options: {
  readonly turns: number;
  readonly toolName: string;
  readonly inputOf: (n: number) => Record<string, number>;
  readonly usage: Usage;
  readonly beforeTurn?: (request: ModelRequest) => void;
}): OneCallATurnModel {
  const { turns, toolName, inputOf, usage, beforeTurn } = options;
  let served = 0;
  return {
    provider: 'bench',
    modelId: 'in-process',
    asked: () => served,
    generate: async (request: ModelRequest): Promise<ModelTurn> => {
      beforeTurn?.(request);
      served += 1;
      if (served > turns) {
        return {
          content: [{ type: 'text', text: 'done' }],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage,
        };
      }
      return {
        content: [{ type: 'tool_call', id: `call_${served}`, name: toolName, input: inputOf(served) }],
        stopReason: { unified: 'tool_calls', raw: 'tool_use' },
        usage,
      };
    },
  };
}
