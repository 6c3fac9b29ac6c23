import type { JsonValue } from '../json/json.js';
import type { ToolCallPart } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';

/** Why a call was refused before a repair was asked for. */
export type RepairProblem = 'unknown_tool' | 'tool_not_loaded' | 'inactive_tool' | 'malformed_json' | 'invalid_input';

/** What the repair hook is shown: the call as the model made it, and what is wrong with it. */
export interface RepairRequest {
  readonly call: ToolCallPart;
  readonly problem: RepairProblem;
  /** The refusal the model gets if nothing is repaired. */
  readonly message: string;
  /** The tools the model may call at this step (names, descriptions, schemas). */
  readonly tools: readonly ToolDeclaration[];
  readonly runId: string;
  readonly turn: number;
  readonly signal?: AbortSignal;
}

/** A rewritten call: a tool name and its input (a JSON object). Its id stays the original call's. */
export interface RepairedCall {
  readonly name: string;
  readonly input: unknown;
}

/**
 * Rewrites a call refused by the first two checks (unknown tool, deferred tool not loaded, inactive tool, unparsable JSON, input that
 * fails the schema), e.g. by asking a model to fix the JSON. Return `undefined` to leave the refusal as it
 * is. A repaired call goes through all four checks again (rights and confirmation are never skipped) and is
 * never repaired twice; a hook that throws or returns anything else than a {@link RepairedCall} leaves the
 * original refusal, and the journal says so.
 */
export type RepairToolCall = (
  request: RepairRequest,
) => RepairedCall | undefined | null | Promise<RepairedCall | undefined | null>;

/** What the journal keeps of a repair: the problem, what became of it, and the original call when it changed. */
export interface JournalRepair {
  readonly problem: RepairProblem;
  /** `repaired`: the entry is the rewritten call; `declined` / `failed`: the entry is the original refusal. */
  readonly outcome: 'repaired' | 'declined' | 'failed';
  /** For `repaired`: the call as the model made it (its input as JSON, `null` when it did not parse). */
  readonly original?: { readonly toolName: string; readonly input: JsonValue; readonly rawInput?: string };
  /** For `failed`: what the hook threw or returned. */
  readonly detail?: string;
}
