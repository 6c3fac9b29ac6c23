import type {
  JsonValue,
  MediaContentPart,
  ResultContentChange,
  ResultCoverageTable,
  ToolResultContentPart,
  ToolResultPart,
} from '@toolcircuit/core';
import {
  describeMedia,
  mediaBase64,
  mediaPartChange,
  mediaText,
  resultPartKindOf,
  toolResultText,
} from '@toolcircuit/core/provider';
import type { GeminiFunctionResponse, GeminiMediaPart, GeminiRequestPart } from './google-api.js';

/**
 * @google/genai: `functionResponse.parts` carry images (PNG, JPEG, WebP) and PDFs inline or by URI, and the
 * response refers to each by its `displayName`. Gemini reads no GIF, and a text file goes in the response
 * as text.
 *
 * @see https://ai.google.dev/gemini-api/docs/function-calling#multimodal
 */
export const GOOGLE_GENAI_TOOL_RESULT_COVERAGE: ResultCoverageTable = Object.freeze({
  text: 'native',
  json: 'native',
  'image-data': 'native',
  'image-url': 'native',
  'image-gif': 'placeholder',
  'pdf-data': 'native',
  'pdf-url': 'native',
  'text-file-data': 're-encoded',
  'text-file-url': 'placeholder',
  'audio-data': 'placeholder',
  'audio-url': 'placeholder',
});

/**
 * @google/generative-ai (legacy): its `FunctionResponse` has no `parts` and its `function` role takes
 * nothing but function responses, so images and PDFs move to a `user` content right after, which names the
 * call, as `inlineData` / `fileData` parts.
 */
export const GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE: ResultCoverageTable = Object.freeze({
  ...GOOGLE_GENAI_TOOL_RESULT_COVERAGE,
  'image-data': 'moved',
  'image-url': 'moved',
  'pdf-data': 'moved',
  'pdf-url': 'moved',
});

export interface GoogleToolResultOptions {
  /** The name declared to Gemini. */
  readonly providerName: string;
  /** Send `id` only when Gemini gave the call one. */
  readonly id?: string | undefined;
  /** True for @google/genai (`functionResponse.parts`); false moves media after the function responses. */
  readonly functionResponseParts: boolean;
}

export interface GoogleToolResult {
  readonly functionResponse: GeminiFunctionResponse;
  /** Parts for a `user` content after the function responses (empty when nothing moved). */
  readonly moved: GeminiRequestPart[];
  readonly changes: readonly ResultContentChange[];
}

/** One neutral result → a `functionResponse` (with `parts` where the SDK has them), and what had to change. */
export function convertToGoogleToolResult(result: ToolResultPart, options: GoogleToolResultOptions): GoogleToolResult {
  const coverage = options.functionResponseParts
    ? GOOGLE_GENAI_TOOL_RESULT_COVERAGE
    : GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE;
  const provider = options.functionResponseParts ? 'google.genai' : 'google.generative-ai';
  const changes: ResultContentChange[] = [];
  const nativeParts: GeminiMediaPart[] = [];
  const moved: GeminiRequestPart[] = [];
  let value: JsonValue;
  if (typeof result.content === 'string' || !result.content.some(isMedia)) value = resultValue(result);
  else {
    const lines = result.content.map((part, index): string => {
      if (!isMedia(part)) return toolResultText([part]);
      const kind = coverage[resultPartKindOf(part)];
      const displayName = displayNameOf(part, index);
      if (kind === 'native') {
        nativeParts.push(mediaPart(part, displayName));
        return `${describeMedia(part)} (attached as "${displayName}")`;
      }
      if (kind === 'moved') {
        if (moved.length === 0) moved.push({ text: `Attachments of the result of function ${options.providerName}:` });
        moved.push(mediaPart(part, undefined));
        changes.push(
          mediaPartChange(provider, result, index, part, kind, "This SDK's function responses carry no parts."),
        );
        return `${describeMedia(part)} (attached in the next user content)`;
      }
      if (kind === 're-encoded') {
        changes.push(mediaPartChange(provider, result, index, part, kind, 'A text file goes in the response as text.'));
        return `${part.type === 'file' && part.name !== undefined ? part.name : part.mediaType}:\n${mediaText(part) ?? ''}`;
      }
      changes.push(
        mediaPartChange(
          provider,
          result,
          index,
          part,
          kind,
          'Gemini cannot read this part here; it is described as text.',
        ),
      );
      return describeMedia(part);
    });
    value = lines.join('\n');
  }
  const functionResponse: GeminiFunctionResponse = {
    ...(options.id === undefined ? {} : { id: options.id }),
    name: options.providerName,
    response: result.isError ? { error: value } : { output: value },
    ...(nativeParts.length === 0 ? {} : { parts: nativeParts }),
  };
  return { functionResponse, moved, changes };
}

/** A single structured part goes as JSON (Gemini's response is a Struct); anything else as text. */
function resultValue(result: ToolResultPart): JsonValue {
  const content = result.content;
  if (typeof content !== 'string' && content.length === 1 && content[0]?.type === 'json') return content[0].value;
  return toolResultText(content);
}

function isMedia(part: ToolResultContentPart): part is MediaContentPart {
  return part.type === 'image' || part.type === 'file';
}

// Unique within the response (the position makes it so) and readable: the file's name when it has one.
function displayNameOf(part: MediaContentPart, index: number): string {
  if (part.type === 'file' && part.name !== undefined) return `${index + 1}-${part.name}`;
  return `${index + 1}-${part.type}.${part.mediaType.split('/')[1] ?? 'bin'}`;
}

function mediaPart(part: MediaContentPart, displayName: string | undefined): GeminiMediaPart {
  const named = displayName === undefined ? {} : { displayName };
  if (part.url !== undefined) return { fileData: { mimeType: part.mediaType, fileUri: part.url, ...named } };
  return { inlineData: { mimeType: part.mediaType, data: mediaBase64(part) ?? '', ...named } };
}
