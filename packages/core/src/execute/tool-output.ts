import type { ToolOutput, ToolResultOutput } from '../catalogue/tool.js';
import { mediaPartProblem } from '../content/check-media-part.js';
import type { MediaContentPart } from '../content/media-part.js';
import type { ResultContentLimits } from '../content/result-content-limits.js';
import { jsonCopy } from '../json/json-copy.js';
import type { ToolResultContent, ToolResultContentPart } from '../messages/messages.js';
import { describeError } from './model-facing-texts.js';

export type NormalisedOutput =
  | { readonly ok: true; readonly content: ToolResultContent; readonly isError: boolean }
  | { readonly ok: false; readonly message: string };

const NO_OUTPUT = 'The tool ran and returned no output.';

/**
 * Turns whatever `run` returned into result content: a string as text; a {@link ToolResultOutput} as the
 * tool shaped it (text, JSON, image and file parts, each image and file checked against its media type and
 * `limits`); any other value as ONE `json` part. Adapters whose provider takes only text render it with
 * `toolResultText` (its JSON text); a text copy beside it would make them send the output twice. A value
 * JSON cannot carry, or a binary part that cannot be sent, is reported, not thrown.
 */
export function normaliseToolOutput(output: ToolOutput, limits?: ResultContentLimits): NormalisedOutput {
  try {
    return normalise(output, limits);
  } catch (error) {
    // A throwing getter, a revoked Proxy, a `toJSON` that throws: reading the value is the tool failing.
    return { ok: false, message: `reading the value it returned threw (${describeError(error)})` };
  }
}

function normalise(output: ToolOutput, limits: ResultContentLimits | undefined): NormalisedOutput {
  if (typeof output === 'string') return { ok: true, content: output, isError: false };
  if (output === undefined) return { ok: true, content: NO_OUTPUT, isError: false };
  if (isResultOutput(output)) {
    const content = copyContent(output.content, limits);
    if (typeof content === 'object' && 'problem' in content) return { ok: false, message: content.problem };
    return { ok: true, content, isError: output.isError };
  }
  const value = jsonCopy(output);
  if (value === undefined) return { ok: false, message: `it returned a ${typeof output} that cannot be sent as JSON` };
  return {
    ok: true,
    content: [{ type: 'json', value }],
    isError: false,
  };
}

function isResultOutput(output: ToolOutput): output is ToolResultOutput {
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return false;
  const candidate = output as Partial<Record<keyof ToolResultOutput, unknown>>;
  return (
    typeof candidate.isError === 'boolean' &&
    (typeof candidate.content === 'string' ||
      (Array.isArray(candidate.content) && candidate.content.every(isContentPart)))
  );
}

function isContentPart(part: unknown): part is ToolResultContentPart {
  if (part === null || typeof part !== 'object') return false;
  const candidate = part as { type?: unknown; text?: unknown; value?: unknown };
  return (
    (candidate.type === 'text' && typeof candidate.text === 'string') ||
    (candidate.type === 'json' && 'value' in candidate) ||
    ((candidate.type === 'image' || candidate.type === 'file') && isMediaShape(part))
  );
}

function isMediaShape(part: object): boolean {
  const candidate = part as { mediaType?: unknown; data?: unknown; url?: unknown; name?: unknown };
  const hasData = typeof candidate.data === 'string' || candidate.data instanceof Uint8Array;
  const hasUrl = typeof candidate.url === 'string';
  return (
    typeof candidate.mediaType === 'string' &&
    hasData !== hasUrl &&
    (candidate.name === undefined || typeof candidate.name === 'string')
  );
}

function copyContent(
  content: ToolResultContent,
  limits: ResultContentLimits | undefined,
): ToolResultContent | { readonly problem: string } {
  if (typeof content === 'string') return content;
  const parts: ToolResultContentPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        parts.push({ type: 'text', text: part.text });
        break;
      case 'json': {
        const value = jsonCopy(part.value);
        if (value === undefined) return { problem: 'it returned result content that is not JSON' };
        parts.push({ type: 'json', value });
        break;
      }
      default: {
        const problem = mediaPartProblem(part, limits);
        if (problem !== undefined) return { problem };
        parts.push(copyMedia(part));
      }
    }
  }
  return parts;
}

// A fresh, frozen part (so no one can swap its data after it was checked); the bytes themselves are shared.
function copyMedia(part: MediaContentPart): MediaContentPart {
  const source = part.url === undefined ? { data: part.data } : { url: part.url };
  const name = part.type === 'file' && part.name !== undefined ? { name: part.name } : {};
  return Object.freeze({ type: part.type, mediaType: part.mediaType, ...name, ...source }) as MediaContentPart;
}
