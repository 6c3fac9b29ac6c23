import type { Model, ModelRequest, ModelTurn, ToolCallPart } from '@toolcircuit/core';

export interface StreamingHooks {
  /** A request is about to go out (start a progress indicator). */
  readonly onRequest: () => void;
  readonly onTextDelta: (text: string) => void;
  /** The turn is complete, or failed. */
  readonly onSettled: () => void;
}

export const CUT_STREAM_INPUT_ERROR = 'the stream ended before the arguments of this call were complete';

/**
 * The loop asks `generate` for whole turns; this wrapper answers from `stream()` when the adapter has one
 * (and `stream` is on), so text reaches the terminal as it is produced, then hands the loop the turn that
 * the stream's `turn-end` carries. It works the same under `runLoop` and `resumeLoop`.
 *
 * A call the stream never finished (reported by the adapter, or without its `tool-call-end`) gets an
 * `inputError`, so the executor refuses it instead of running possibly cut arguments, as core's
 * `streamLoop` does.
 */
export function streamingModel(model: Model, hooks: StreamingHooks, stream = true): Model {
  const streamTurn = model.stream;
  return {
    provider: model.provider,
    modelId: model.modelId,
    async generate(request: ModelRequest): Promise<ModelTurn> {
      hooks.onRequest();
      try {
        if (!stream || streamTurn === undefined) return await model.generate(request);
        const ended = new Set<string>();
        for await (const event of streamTurn.call(model, request)) {
          if (event.type === 'text-delta') hooks.onTextDelta(event.text);
          else if (event.type === 'tool-call-end') ended.add(event.id);
          else if (event.type === 'turn-end')
            return markCutCalls(event.turn, new Set(event.incompleteToolCallIds), ended);
          else if (event.type === 'error') throw event.error;
        }
        throw new Error(`${model.provider}: the stream ended without a turn-end event; nothing of this turn was run`);
      } finally {
        hooks.onSettled();
      }
    },
  };
}

function markCutCalls(turn: ModelTurn, reported: ReadonlySet<string>, ended: ReadonlySet<string>): ModelTurn {
  const isCut = (call: ToolCallPart) => reported.has(call.id) || !ended.has(call.id);
  if (!turn.content.some((part) => part.type === 'tool_call' && isCut(part))) return turn;
  return {
    ...turn,
    content: turn.content.map((part) =>
      part.type === 'tool_call' && isCut(part) && part.inputError === undefined
        ? { ...part, inputError: CUT_STREAM_INPUT_ERROR }
        : part,
    ),
  };
}
