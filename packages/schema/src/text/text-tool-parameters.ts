import type { TextGrammar } from '@toolcircuit/core';
import type { SchemaChange } from '../schema-change.js';
import type { SchemaTarget } from '../schema-target.js';

/** The one parameter a text tool gets on a provider without custom tools. */
export const TEXT_INPUT_PARAMETER = 'input';

/** A text tool declared as a function: its parameters, in the target's dialect, and the change that says so. */
export interface TextToolParameters {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly changes: readonly SchemaChange[];
}

/**
 * The degradation of a text tool (core's `defineTextTool`) for a provider without custom tools (Anthropic,
 * Gemini, OpenAI-compatible servers): a function with one required string parameter, `input`. A grammar is
 * described in that parameter for the model to follow, not enforced by the provider, which only makes the
 * provider side looser: the executor still checks the text (its regex grammar, the tool's `validate`).
 * The change log says so at the root (`text-input-as-function`).
 */
export function textToolParameters(grammar: TextGrammar | undefined, target: SchemaTarget): TextToolParameters {
  const description =
    grammar === undefined
      ? 'The input, as plain text.'
      : grammar.syntax === 'regex'
        ? `The input, as plain text that matches this regular expression as a whole: ${grammar.definition}`
        : `The input, as plain text that follows this Lark grammar:\n${grammar.definition}`;
  const input = { type: 'string', description };
  // Gemini's OpenAPI subset has no additionalProperties; every other dialect closes the object (strict mode needs it).
  const schema =
    target === 'gemini'
      ? { type: 'object', properties: { [TEXT_INPUT_PARAMETER]: input }, required: [TEXT_INPUT_PARAMETER] }
      : {
          type: 'object',
          properties: { [TEXT_INPUT_PARAMETER]: input },
          required: [TEXT_INPUT_PARAMETER],
          additionalProperties: false,
        };
  const enforced =
    grammar === undefined
      ? ''
      : ` Its ${grammar.syntax} grammar is described to the model, not enforced by the provider.`;
  const change: SchemaChange = {
    path: '',
    kind: 'text-input-as-function',
    detail: `${target} has no custom (text-input) tools: the tool is declared as a function with one string parameter "${TEXT_INPUT_PARAMETER}", whose value is the tool's text.${enforced}`,
  };
  return { schema: Object.freeze(schema), changes: Object.freeze([change]) };
}

/** A text tool's call as a function's arguments (a history sent to a provider without custom tools). */
export function textToolArguments(text: string): { [TEXT_INPUT_PARAMETER]: string } {
  return { [TEXT_INPUT_PARAMETER]: text };
}

/**
 * The text of a call to a text tool declared as a function: the `input` string of its arguments. Anything
 * else is an error the executor reports to the model (no text is made up).
 */
export function restoreTextInput(
  args: unknown,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string } {
  if (typeof args === 'string') return { ok: true, text: args };
  const value =
    typeof args === 'object' && args !== null && !Array.isArray(args)
      ? (args as Record<string, unknown>)[TEXT_INPUT_PARAMETER]
      : undefined;
  if (typeof value === 'string') return { ok: true, text: value };
  return {
    ok: false,
    error: `the arguments of a text tool must be {"${TEXT_INPUT_PARAMETER}": "<text>"}, got ${JSON.stringify(args)?.slice(0, 80) ?? String(args)}`,
  };
}
