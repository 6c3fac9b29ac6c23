import type { ToolOutput, ToolResultOutput } from '../catalogue/tool.js';
import { jsonCopy } from '../json/json-copy.js';
import type { JsonContentPart, TextPart, ToolResultContent } from '../messages/messages.js';
import { describeError } from './model-facing-texts.js';

export type NormalisedOutput =
  | { readonly ok: true; readonly content: ToolResultContent; readonly isError: boolean }
  | { readonly ok: false; readonly message: string };

const NO_OUTPUT = 'The tool ran and returned no output.';

/**
 * Turns whatever `run` returned into result content: a string as text; a {@link ToolResultOutput} as the
 * tool shaped it; any other value as ONE `json` part. Adapters whose provider takes only text render it with
 * `toolResultText` (its JSON text); a text copy beside it would make them send the output twice. A value
 * JSON cannot carry is reported, not thrown.
 */
export function normaliseToolOutput(output: ToolOutput): NormalisedOutput {
  try {
    return normalise(output);
  } catch (error) {
    // A throwing getter, a revoked Proxy, a `toJSON` that throws: reading the value is the tool failing.
    return { ok: false, message: `reading the value it returned threw (${describeError(error)})` };
  }
}

function normalise(output: ToolOutput): NormalisedOutput {
  if (typeof output === 'string') return { ok: true, content: output, isError: false };
  if (output === undefined) return { ok: true, content: NO_OUTPUT, isError: false };
  if (isResultOutput(output)) {
    const content = copyContent(output.content);
    if (content === undefined) return { ok: false, message: 'it returned result content that is not JSON' };
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

function isContentPart(part: unknown): part is TextPart | JsonContentPart {
  if (part === null || typeof part !== 'object') return false;
  const candidate = part as { type?: unknown; text?: unknown; value?: unknown };
  return (
    (candidate.type === 'text' && typeof candidate.text === 'string') ||
    (candidate.type === 'json' && 'value' in candidate)
  );
}

function copyContent(content: ToolResultContent): ToolResultContent | undefined {
  if (typeof content === 'string') return content;
  const parts: (TextPart | JsonContentPart)[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      parts.push({ type: 'text', text: part.text });
      continue;
    }
    const value = jsonCopy(part.value);
    if (value === undefined) return undefined;
    parts.push({ type: 'json', value });
  }
  return parts;
}
