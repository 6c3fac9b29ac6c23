import type { AssistantContentPart, JsonObject, ModelTurn, StopReason, Usage } from '@toolcircuit/core';
import type { ToolCallContext } from './openai-shared-tool-calls.js';

/** What both APIs' parsers need: the tool names and schemas of the request, and the provider key. */
export interface OpenAIParseContext extends ToolCallContext {
  readonly provider: string;
}

export interface ParsedOpenAITurn {
  readonly turn: ModelTurn;
  /** Calls whose arguments may be incomplete; they carry an `inputError` and must not run. */
  readonly incompleteToolCallIds: readonly string[];
}

export interface OpenAITurnParts {
  readonly content: readonly AssistantContentPart[];
  readonly stopReason: StopReason;
  /** The output held a refusal. */
  readonly refused: boolean;
  readonly usage: Usage;
  readonly metadata: JsonObject;
  readonly incompleteToolCallIds: readonly string[];
}

/**
 * The turn both APIs end with. OpenAI reports a refusal only in the content, with a normal finish reason, so
 * a turn that ended normally with a refusal in it is reported as `refusal` (keeping the raw reason).
 */
export function openAITurn(parts: OpenAITurnParts, provider: string): ParsedOpenAITurn {
  const { stopReason } = parts;
  return {
    turn: {
      content: parts.content,
      stopReason:
        parts.refused && stopReason.unified === 'end_turn' ? { unified: 'refusal', raw: stopReason.raw } : stopReason,
      usage: parts.usage,
      providerMetadata: { [provider]: parts.metadata },
    },
    incompleteToolCallIds: parts.incompleteToolCallIds,
  };
}
