import type {
  MediaContentPart,
  ResultContentChange,
  ResultCoverageTable,
  ToolResultContentPart,
  ToolResultPart,
} from '@toolcircuit/core';
import {
  describeMedia,
  isAudioMediaType,
  mediaDataUrl,
  mediaPartChange,
  mediaText,
  resultPartKindOf,
  toolResultText,
} from '@toolcircuit/core/provider';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ResponseFunctionCallOutputItem } from 'openai/resources/responses/responses';
import { TOOL_ERROR_PREFIX } from './openai-shared-tool-result-output.js';

/**
 * Responses: a `function_call_output` takes a content list of `input_text`, `input_image` (data URL or URL)
 * and `input_file` (data URL + file name, or URL). A text file goes as text, which every model reads.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export const OPENAI_RESPONSES_TOOL_RESULT_COVERAGE: ResultCoverageTable = Object.freeze({
  text: 'native',
  json: 'native',
  'image-data': 'native',
  'image-url': 'native',
  'image-gif': 'native',
  'pdf-data': 'native',
  'pdf-url': 'native',
  'text-file-data': 're-encoded',
  'text-file-url': 'native',
  'audio-data': 'placeholder',
  'audio-url': 'placeholder',
});

/**
 * Chat Completions: a `tool` message holds text only, so images and PDFs move into a user message right after
 * the turn's tool messages, which names the call they belong to. A user message's `file` part has no URL
 * field, so a file by URL is only named; a text file's content goes in the tool message as text.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export const OPENAI_CHAT_TOOL_RESULT_COVERAGE: ResultCoverageTable = Object.freeze({
  text: 'native',
  json: 'native',
  'image-data': 'moved',
  'image-url': 'moved',
  'image-gif': 'moved',
  'pdf-data': 'moved',
  'pdf-url': 'placeholder',
  'text-file-data': 're-encoded',
  'text-file-url': 'placeholder',
  'audio-data': 'placeholder',
  'audio-url': 'placeholder',
});

export interface OpenAIResponsesToolResult {
  /** A string when the result is text only (what the API has always taken), else a content list. */
  readonly output: string | ResponseFunctionCallOutputItem[];
  readonly changes: readonly ResultContentChange[];
}

export interface OpenAIChatToolResult {
  /** The `tool` message's text; a moved part is named in it, at its place. */
  readonly content: string;
  /** Parts for the user message that follows the turn's tool messages (empty when nothing moved). */
  readonly attachments: ChatCompletionContentPart[];
  readonly changes: readonly ResultContentChange[];
}

/** One neutral result → a Responses `function_call_output` output, and what had to change in it. */
export function convertToOpenAIResponsesToolResult(result: ToolResultPart): OpenAIResponsesToolResult {
  if (!hasMedia(result)) return { output: prefixed(result, toolResultText(result.content)), changes: [] };
  const changes: ResultContentChange[] = [];
  const items = (result.content as readonly ToolResultContentPart[]).map(
    (part, index): ResponseFunctionCallOutputItem => {
      if (part.type === 'text') return { type: 'input_text', text: part.text };
      if (part.type === 'json') return { type: 'input_text', text: JSON.stringify(part.value) };
      const coverage = OPENAI_RESPONSES_TOOL_RESULT_COVERAGE[resultPartKindOf(part)];
      if (coverage === 'native') return responsesMediaItem(part);
      if (coverage === 'placeholder') {
        changes.push(mediaPartChange('openai.responses', result, index, part, coverage, NO_AUDIO));
        return { type: 'input_text', text: describeMedia(part) };
      }
      changes.push(
        mediaPartChange('openai.responses', result, index, part, coverage, 'A text file goes as input_text.'),
      );
      return { type: 'input_text', text: textFileText(part) };
    },
  );
  // The error flag has no field here either: the first text says it, as in a text-only output.
  if (result.isError) items.unshift({ type: 'input_text', text: TOOL_ERROR_PREFIX.trim() });
  return { output: items, changes };
}

/** One neutral result → a Chat `tool` message's text, the parts that move after it, and what changed. */
export function convertToOpenAIChatToolResult(result: ToolResultPart): OpenAIChatToolResult {
  if (!hasMedia(result))
    return { content: prefixed(result, toolResultText(result.content)), attachments: [], changes: [] };
  const changes: ResultContentChange[] = [];
  const attachments: ChatCompletionContentPart[] = [];
  const lines = (result.content as readonly ToolResultContentPart[]).map((part, index): string => {
    if (part.type === 'text') return part.text;
    if (part.type === 'json') return JSON.stringify(part.value);
    const coverage = OPENAI_CHAT_TOOL_RESULT_COVERAGE[resultPartKindOf(part)];
    if (coverage === 're-encoded') {
      changes.push(
        mediaPartChange('openai.chat', result, index, part, coverage, 'A text file goes as text in the tool message.'),
      );
      return textFileText(part);
    }
    if (coverage === 'moved') {
      if (attachments.length === 0) {
        attachments.push({
          type: 'text',
          text: `Attachments of the result of tool call ${result.callId} (${result.name}):`,
        });
      }
      attachments.push(chatMediaPart(part));
      changes.push(
        mediaPartChange(
          'openai.chat',
          result,
          index,
          part,
          coverage,
          'Tool messages hold text only: sent in the next user message.',
        ),
      );
      return `${describeMedia(part)} (attached in the next user message)`;
    }
    const detail = isAudioMediaType(part.mediaType)
      ? NO_AUDIO
      : 'Chat Completions cannot take a file by URL: the URL is sent as text.';
    changes.push(mediaPartChange('openai.chat', result, index, part, 'placeholder', detail));
    return describeMedia(part);
  });
  return { content: prefixed(result, lines.join('\n')), attachments, changes };
}

const NO_AUDIO = 'OpenAI takes no audio in tool results; it is described as text.';

function hasMedia(result: ToolResultPart): boolean {
  return (
    typeof result.content !== 'string' && result.content.some((part) => part.type === 'image' || part.type === 'file')
  );
}

function prefixed(result: ToolResultPart, text: string): string {
  return result.isError ? `${TOOL_ERROR_PREFIX}${text}` : text;
}

function responsesMediaItem(part: MediaContentPart): ResponseFunctionCallOutputItem {
  if (part.type === 'image') {
    return { type: 'input_image', image_url: part.url ?? mediaDataUrl(part) ?? '', detail: 'auto' };
  }
  const filename = part.name ?? defaultFileName(part);
  if (part.url !== undefined) return { type: 'input_file', file_url: part.url, filename };
  return { type: 'input_file', file_data: mediaDataUrl(part) ?? '', filename };
}

function chatMediaPart(part: MediaContentPart): ChatCompletionContentPart {
  if (part.type === 'image') return { type: 'image_url', image_url: { url: part.url ?? mediaDataUrl(part) ?? '' } };
  return { type: 'file', file: { file_data: mediaDataUrl(part) ?? '', filename: part.name ?? defaultFileName(part) } };
}

// The API rejects a file without a name; the media type gives it a fitting extension.
function defaultFileName(part: MediaContentPart): string {
  return part.mediaType === 'application/pdf' ? 'document.pdf' : 'document.txt';
}

function textFileText(part: MediaContentPart): string {
  const name = part.type === 'file' && part.name !== undefined ? part.name : part.mediaType;
  return `${name}:\n${mediaText(part) ?? ''}`;
}
