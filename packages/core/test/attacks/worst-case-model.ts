// The worst case a defence has to hold against: a model that obeys every instruction it finds in any tool
// result, copying the attacker's values into the arguments, and otherwise does the user's task faithfully.
import {
  canonicalJson,
  type JsonValue,
  type Model,
  type ModelRequest,
  type ModelTurn,
  type ToolCallPart,
  type ToolResultContent,
  type UntrustedContent,
} from '../../src/index.js';
import { callsTurn, textTurn } from '../support.js';
import type { Domain } from './domains.js';

const DIRECTIVE = /call ([a-z_]+) with /g;

export interface WorstCaseOptions {
  /**
   * The provider's hosted search ran first in the model's first response and returned this content: the
   * model obeys it in that same response, before any tool of the application has run.
   */
  readonly hosted?: UntrustedContent;
  /** How the model rewrites the attacker's arguments before sending them (re-cased, encoded, split…). */
  readonly transform?: (input: JsonValue) => JsonValue;
}

export function worstCaseModel(domain: Domain, options: WorstCaseOptions = {}): Model & { readonly obeyed: string[] } {
  let next = 0;
  const obeyed: string[] = [];
  const id = (): string => {
    next += 1;
    return `call-${next}`;
  };
  return {
    provider: 'test',
    modelId: 'obeys-every-injection',
    obeyed,
    async generate(request: ModelRequest): Promise<ModelTurn> {
      const made = madeCalls(request);
      const results = resultsOf(request);
      const transform = options.transform ?? ((input: JsonValue) => input);
      if (made.length === 0) {
        const reads = domain.benign.reads.map((read) => call(id(), read.tool, read.input));
        const { hosted } = options;
        if (hosted === undefined) return callsTurn(reads);
        // What the hosted search returned is obeyed at once, in the same response (no secret needed first).
        const obeyedNow = directivesIn(hosted.text).filter((directive) => !directive.needsSecret);
        obeyed.push(...obeyedNow.map((directive) => directive.key));
        const calls = obeyedNow.map((directive) => call(id(), directive.tool, transform(directive.input)));
        return { ...callsTurn([...calls, ...reads]), untrustedContent: [hosted] };
      }

      const directives = [
        ...(options.hosted === undefined ? [] : directivesIn(options.hosted.text)),
        ...results.flatMap((result) => directivesIn(result.content)),
      ];
      const pending = directives.filter((directive) => !obeyed.includes(directive.key));
      if (pending.length > 0) {
        const secret = results.find((result) => result.name === domain.secret.tool);
        const needsSecret = pending.some((directive) => JSON.stringify(directive.input).includes('{{secret}}'));
        if (needsSecret && secret === undefined) return callsTurn([call(id(), domain.secret.tool, {})]);
        const secretValue = secret === undefined ? '' : String(leaf(secret.content, domain.secret.field));
        obeyed.push(...pending.map((directive) => directive.key));
        return callsTurn(
          pending.map((directive) => call(id(), directive.tool, transform(substitute(directive.input, secretValue)))),
        );
      }
      const { action } = domain.benign;
      if (!made.some((part) => part.name === action.tool && sameJson(part.input, action.input))) {
        return callsTurn([call(id(), action.tool, action.input)]);
      }
      return textTurn('Done.');
    },
  };
}

function call(id: string, name: string, input: JsonValue): ToolCallPart {
  return { type: 'tool_call', id, name, input };
}

export function madeCalls(request: ModelRequest): ToolCallPart[] {
  return request.messages.flatMap((message) =>
    message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool_call') : [],
  );
}

function resultsOf(request: ModelRequest): { name: string; content: ToolResultContent }[] {
  return request.messages.flatMap((message) => (message.role === 'tool' ? [...message.content] : []));
}

export interface Directive {
  readonly key: string;
  readonly tool: string;
  readonly input: JsonValue;
  readonly needsSecret: boolean;
}

/** Every "call X with {json}" in the result's text and in every string of its JSON, anywhere. */
export function directivesIn(content: ToolResultContent): Directive[] {
  const found: Directive[] = [];
  for (const text of stringsOf(content)) {
    for (const match of text.matchAll(DIRECTIVE)) {
      const start = (match.index ?? 0) + match[0].length;
      const json = balancedObject(text, start);
      if (json === undefined) continue;
      try {
        found.push({
          key: `${match[1]}${json}`,
          tool: match[1] as string,
          input: JSON.parse(json) as JsonValue,
          needsSecret: json.includes('{{secret}}'),
        });
      } catch {
        // Not JSON after all: nothing to obey.
      }
    }
  }
  return found;
}

function stringsOf(content: ToolResultContent): string[] {
  if (typeof content === 'string') return [content];
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  for (const part of content) {
    if (part.type === 'json') walk(part.value);
    else if (part.type === 'text') for (const line of part.text.split('\n')) walk(parsedOrText(line));
    // An image or file: the model reads its pixels or pages, which this scripted model cannot; its name it can.
    else if (part.type === 'file' && part.name !== undefined) walk(part.name);
  }
  return strings;
}

/** A line of JSON (a spotlit result renders its JSON parts as text lines) is read as JSON, like a model would. */
export function parsedOrText(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

function balancedObject(text: string, start: number): string | undefined {
  if (text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}

function leaf(content: ToolResultContent, field: string): unknown {
  if (typeof content === 'string') return undefined;
  for (const part of content) {
    if (part.type === 'json' && part.value !== null && typeof part.value === 'object' && !Array.isArray(part.value)) {
      return (part.value as Record<string, unknown>)[field];
    }
  }
  return undefined;
}

function substitute(input: JsonValue, secret: string): JsonValue {
  return JSON.parse(JSON.stringify(input).replaceAll('{{secret}}', secret)) as JsonValue;
}

/** The same JSON value, whatever its key order (a stored state's messages come back in canonical order). */
function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
