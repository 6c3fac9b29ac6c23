import type { BuiltinToolKind, ProviderMetadata, StreamEvent, ToolCallPart } from '@toolcircuit/core';
import { restoreTextInput, textToolArguments } from '@toolcircuit/schema';

/** What the adapter needs to turn a provider's function call back into a neutral {@link ToolCallPart}. */
export interface ToolCallContext {
  /** Provider tool name → catalogue name (names may have been rewritten to satisfy the provider). */
  readonly fromProviderName: (providerName: string) => string;
  /**
   * A call's parsed arguments → the shape of the tool's ORIGINAL schema, by catalogue name (strict mode's null
   * for "omitted" removed, JSON text parsed back), by the dialect that tool was declared in. Identity for a
   * tool sent without reshaping (and for names not in the catalogue).
   */
  readonly restoreInput: (name: string, input: unknown) => unknown;
  /** Whether a catalogue tool is a text tool: its input is a string, however it was declared. */
  readonly isTextTool: (name: string) => boolean;
  /** The catalogue tool declared with a built-in type's native declaration, by kind. */
  readonly builtinTool: (kind: BuiltinToolKind) => string | undefined;
}

export interface RawToolCall {
  readonly id: string;
  readonly providerName: string;
  /** The arguments exactly as the provider sent them: a JSON string that may be invalid or cut off. */
  readonly arguments: string;
  /** The output was cut (max tokens, broken stream) before this call's arguments were known to be complete. */
  readonly cutOff: boolean;
  readonly providerMetadata?: ProviderMetadata;
}

export const CUT_OFF_ERROR = 'the call was cut off before its arguments were complete (output limit or broken stream)';

/**
 * Builds the neutral call. Empty arguments mean "no arguments" (`{}`): some servers send "" for
 * parameterless tools. Invalid JSON keeps the raw text in `rawInput` with an `inputError` and leaves
 * `input` undefined, so the executor answers with an error result instead of running the tool.
 */
export function toToolCallPart(call: RawToolCall, context: ToolCallContext): ToolCallPart {
  const name = context.fromProviderName(call.providerName);
  const base = {
    type: 'tool_call' as const,
    id: call.id,
    name,
    ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
  };
  if (call.cutOff) return { ...base, input: undefined, rawInput: call.arguments, inputError: CUT_OFF_ERROR };
  if (call.arguments.trim() === '') return { ...base, input: {} };
  let input: unknown;
  try {
    input = JSON.parse(call.arguments);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      input: undefined,
      rawInput: call.arguments,
      inputError: `arguments are not valid JSON: ${reason}`,
    };
  }
  // A text tool declared as a function (no custom tools here): its text is the one string argument.
  if (context.isTextTool(name)) {
    const restored = restoreTextInput(input);
    if (!restored.ok) return { ...base, input: undefined, rawInput: call.arguments, inputError: restored.error };
    return { ...base, input: restored.text };
  }
  return { ...base, input: context.restoreInput(name, input) };
}

/**
 * The `arguments` string to send back in history. A call whose arguments never parsed is echoed as "{}":
 * OpenAI rejects a history whose function arguments are not JSON, and the model already learns what went
 * wrong from the error result paired with the call.
 */
export function argumentsForHistory(part: ToolCallPart): string {
  if (part.inputError !== undefined || part.input === undefined) return '{}';
  // A text tool's call sent as a function's (Chat without custom tools): the text in its one parameter.
  if (typeof part.input === 'string') return JSON.stringify(textToolArguments(part.input));
  return JSON.stringify(part.input);
}

/** Ids are unique within a turn; a missing or repeated id (seen on compatible servers) is replaced stably. */
export function uniqueCallId(id: string | undefined, index: number, seen: Set<string>): string {
  const chosen = id === undefined || id === '' || seen.has(id) ? `call_${index}` : id;
  seen.add(chosen);
  return chosen;
}

/** The `tool-call-end` event of a complete call (with its `inputError` when its arguments did not parse). */
export function toolCallEndEvent(part: ToolCallPart): StreamEvent {
  return {
    type: 'tool-call-end',
    id: part.id,
    name: part.name,
    input: part.input,
    ...(part.inputError === undefined ? {} : { inputError: part.inputError }),
  };
}
