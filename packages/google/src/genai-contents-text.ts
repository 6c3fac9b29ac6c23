import type { JsonTextCache } from '@toolcircuit/core';
import { stringifyRequestArray } from '@toolcircuit/core/provider';
import type { GeminiRequestContent } from './google-api.js';

/** `fetch` as `@google/genai` calls it (its `HttpOptions['fetch']`). */
export type GenaiFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Sends the conversation's `contents` as text reused from earlier steps, although `@google/genai` takes no
 * serialised body: the SDK is given a one-part placeholder content instead of the history, so it converts
 * and serialises only that and the rest of the request (tools, config, `extraBody`, a continuation token),
 * and the per-request `httpOptions.fetch` (public SDK option) puts the history's text in the placeholder's
 * place in the body the SDK made. The history text is built by core's `stringifyRequestArray`: each
 * converted content's JSON text is made once, the unchanged leading run joined once, so a step serialises
 * only its new messages, as the Anthropic and OpenAI adapters do.
 *
 * What the SDK would have sent instead is the same JSON: for the Gemini API, `contentToMldev` /
 * `partToMldev` copy a content's `parts` and `role` and each part's fields as they are (values by
 * reference), refusing only Vertex-only fields this adapter never sends; `test/genai-contents-text.test.ts`
 * compares both bodies over whole conversations. Should the placeholder not come back as it was given (an
 * SDK that rewrote it), the body is parsed and the history put in as an object: never sent half-replaced.
 */
export interface ContentsText {
  /** The single content the SDK is given in place of the history. */
  readonly placeholder: GeminiRequestContent[];
  /** A fetch over `send` that puts `contents`' text in the placeholder's place. */
  fetchWith(contents: readonly GeminiRequestContent[], send: GenaiFetch): GenaiFetch;
}

export function createContentsText(): ContentsText {
  // The Web Crypto global, loaded on this first use: importing node:crypto would make Node build its ES
  // module facade (which reads every export, webcrypto included) on each cold import of the adapter.
  const marker = `toolcircuit-contents-${globalThis.crypto.randomUUID()}`;
  const needle = JSON.stringify(marker);
  const texts: JsonTextCache = new WeakMap();
  return {
    placeholder: [{ role: 'user', parts: [{ text: marker }] }],
    fetchWith: (contents, send) => {
      let text: string | undefined;
      return (input, init) => {
        const body = init?.body;
        if (typeof body !== 'string' || !body.includes(needle)) return send(input, init);
        // Once per request: a continuation or a retry sends the same history again.
        text ??= stringifyRequestArray(contents, texts);
        return send(input, { ...init, body: spliced(body, needle, marker, text, contents) });
      };
    },
  };
}

function spliced(
  body: string,
  needle: string,
  marker: string,
  contentsText: string,
  contents: readonly GeminiRequestContent[],
): string {
  const at = body.indexOf(needle);
  const key = body.lastIndexOf('"contents":', at);
  if (key !== -1 && body.indexOf(needle, at + needle.length) === -1) {
    const start = key + '"contents":'.length;
    const end = endOfArray(body, start);
    if (end !== undefined && isPlaceholder(body.slice(start, end), marker)) {
      return body.slice(0, start) + contentsText + body.slice(end);
    }
  }
  const parsed = JSON.parse(body) as { contents?: unknown };
  if (!isPlaceholderValue(parsed.contents, marker)) {
    throw new Error('google: @google/genai moved the contents placeholder; the request was not sent');
  }
  parsed.contents = contents;
  return JSON.stringify(parsed);
}

/** The index just past the JSON array that starts at `start`, or undefined if none does. */
function endOfArray(text: string, start: number): number | undefined {
  if (text[start] !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '[' || char === '{') {
      depth += 1;
    } else if (char === ']' || char === '}') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
}

function isPlaceholder(text: string, marker: string): boolean {
  try {
    return isPlaceholderValue(JSON.parse(text), marker);
  } catch {
    return false;
  }
}

function isPlaceholderValue(value: unknown, marker: string): boolean {
  if (!Array.isArray(value) || value.length !== 1) return false;
  const content = value[0] as { role?: unknown; parts?: unknown };
  if (content === null || typeof content !== 'object' || Object.keys(content).length !== 2) return false;
  if (content.role !== 'user' || !Array.isArray(content.parts) || content.parts.length !== 1) return false;
  const part = content.parts[0] as { text?: unknown } | null;
  return part !== null && typeof part === 'object' && Object.keys(part).length === 1 && part.text === marker;
}
