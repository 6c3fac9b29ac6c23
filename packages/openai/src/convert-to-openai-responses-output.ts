import type { JsonObject, JsonValue, ResultContentChange, ToolResultPart } from '@toolcircuit/core';
import { mediaPartChange, toolResultText } from '@toolcircuit/core/provider';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesToolResult } from './convert-to-openai-tool-result.js';

/** How the call a result answers was made: which output item pairs with it. */
export type ResponsesCallKind =
  | 'function_call'
  | 'custom_tool_call'
  | 'apply_patch_call'
  | 'shell_call'
  | 'local_shell_call';

export interface ResponsesOutput {
  readonly item: ResponseInputItem;
  readonly changes: readonly ResultContentChange[];
}

/**
 * One result as the output item its call's type takes: `function_call_output` and `custom_tool_call_output`
 * carry the whole content (text, images, files); `apply_patch_call_output` a status and text;
 * `shell_call_output` the commands' outcomes (a tool may return them as a `json` part, an array of
 * `{ stdout, stderr, outcome }`; any other result is one outcome whose stdout, or stderr for an error, is the
 * result's text); `local_shell_call_output` text. Where only text fits, an image or file is described by a
 * line (type, size, digest or URL), and the change is recorded.
 */
export function convertToOpenAIResponsesOutput(result: ToolResultPart, kind: ResponsesCallKind): ResponsesOutput {
  const call_id = result.callId;
  switch (kind) {
    case 'function_call':
    case 'custom_tool_call': {
      const { output, changes } = convertToOpenAIResponsesToolResult(result);
      const type = kind === 'function_call' ? 'function_call_output' : 'custom_tool_call_output';
      return { item: { type, call_id, output } as ResponseInputItem, changes };
    }
    case 'apply_patch_call':
      return {
        item: {
          type: 'apply_patch_call_output',
          call_id,
          status: result.isError ? 'failed' : 'completed',
          output: textOf(result),
        },
        changes: describedMedia(result),
      };
    case 'shell_call':
      return {
        item: { type: 'shell_call_output', call_id, output: shellOutcomes(result) } as unknown as ResponseInputItem,
        changes: describedMedia(result),
      };
    case 'local_shell_call':
      // Its output names the call by `id` (the call's `call_id`), not `call_id`.
      return {
        item: { type: 'local_shell_call_output', id: call_id, output: textOf(result) },
        changes: describedMedia(result),
      };
  }
}

function textOf(result: ToolResultPart): string {
  return toolResultText(result.content);
}

function shellOutcomes(result: ToolResultPart): JsonValue[] {
  if (typeof result.content !== 'string' && result.content.length === 1) {
    const [only] = result.content;
    if (only?.type === 'json' && Array.isArray(only.value) && only.value.every(isShellOutcome)) return only.value;
  }
  const text = textOf(result);
  return [
    {
      stdout: result.isError ? '' : text,
      stderr: result.isError ? text : '',
      outcome: { type: 'exit', exit_code: result.isError ? 1 : 0 },
    },
  ];
}

function isShellOutcome(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as JsonObject;
  return (
    typeof entry['stdout'] === 'string' && typeof entry['stderr'] === 'string' && typeof entry['outcome'] === 'object'
  );
}

function describedMedia(result: ToolResultPart): ResultContentChange[] {
  if (typeof result.content === 'string') return [];
  return result.content.flatMap((part, index) =>
    part.type === 'image' || part.type === 'file'
      ? [
          mediaPartChange(
            'openai.responses',
            result,
            index,
            part,
            'placeholder',
            'This built-in tool call takes text only: the part is described by a line.',
          ),
        ]
      : [],
  );
}
