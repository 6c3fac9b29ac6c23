import type {
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { MediaContentPart, ResultContentChange, ResultCoverageTable, ToolResultPart } from '@toolcircuit/core';
import {
  describeMedia,
  isAudioMediaType,
  mediaBase64,
  mediaPartChange,
  mediaText,
  resultPartKindOf,
} from '@toolcircuit/core/provider';

/**
 * What a `tool_result` block can hold: text, images (base64 or URL) and documents (PDF as base64 or URL,
 * plain text). A text document by URL has no block (URL documents are PDFs only), so it becomes a line.
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
export const ANTHROPIC_TOOL_RESULT_COVERAGE: ResultCoverageTable = Object.freeze({
  text: 'native',
  json: 'native',
  'image-data': 'native',
  'image-url': 'native',
  'image-gif': 'native',
  'pdf-data': 'native',
  'pdf-url': 'native',
  'text-file-data': 'native',
  'text-file-url': 'placeholder',
  'audio-data': 'placeholder',
  'audio-url': 'placeholder',
});

type ResultBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam;

export interface AnthropicToolResult {
  readonly block: ToolResultBlockParam;
  /** What could not go as it is (see {@link ANTHROPIC_TOOL_RESULT_COVERAGE}). */
  readonly changes: readonly ResultContentChange[];
}

/** One neutral result → one `tool_result` block (with `is_error`), and what had to change in it. */
export function convertToAnthropicToolResult(result: ToolResultPart): AnthropicToolResult {
  const changes: ResultContentChange[] = [];
  let content: string | ResultBlock[];
  if (typeof result.content === 'string') content = result.content;
  else {
    content = result.content.flatMap((part, index): ResultBlock[] => {
      if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
      if (part.type === 'json') return [{ type: 'text', text: JSON.stringify(part.value) }];
      if (ANTHROPIC_TOOL_RESULT_COVERAGE[resultPartKindOf(part)] === 'native') return [mediaBlock(part)];
      const detail = isAudioMediaType(part.mediaType)
        ? 'Anthropic takes no audio in tool results; it is described as text.'
        : 'Anthropic takes documents by URL only as PDF; the URL is sent as text.';
      changes.push(mediaPartChange('anthropic', result, index, part, 'placeholder', detail));
      return [{ type: 'text', text: describeMedia(part) }];
    });
  }
  return {
    block: { type: 'tool_result', tool_use_id: result.callId, content, is_error: result.isError },
    changes,
  };
}

function mediaBlock(part: MediaContentPart): ImageBlockParam | DocumentBlockParam {
  if (part.type === 'image') {
    const source: ImageBlockParam['source'] =
      part.url !== undefined
        ? { type: 'url', url: part.url }
        : { type: 'base64', media_type: part.mediaType as 'image/png', data: mediaBase64(part) ?? '' };
    return { type: 'image', source };
  }
  const title = part.name === undefined ? {} : { title: part.name };
  if (part.url !== undefined) return { type: 'document', source: { type: 'url', url: part.url }, ...title };
  if (part.mediaType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: mediaBase64(part) ?? '' },
      ...title,
    };
  }
  // Text files (plain, Markdown, CSV) go as a plain-text document: the API's only text source type.
  return {
    type: 'document',
    source: { type: 'text', media_type: 'text/plain', data: mediaText(part) ?? '' },
    ...title,
  };
}
