import { isPromiseLike } from '../async/eventually.js';
import { InvalidToolDefinitionError } from '../errors/invalid-tool-definition-error.js';
import type { JsonObject } from '../json/json.js';
import type { TextGrammar, TextInput } from './text-input.js';
import type { ToolContext, ToolOutput, ToolSpec } from './tool.js';
import { defineTool, type ToolDefinition } from './tool.js';
import type { InputValidation, InputValidator } from './validate-input.js';

/** The schema a text tool's declaration carries: a string (adapters read `textInput`, not this). */
export const TEXT_INPUT_SCHEMA: JsonObject = Object.freeze({ type: 'string' }) as JsonObject;

export interface TextToolSpec
  extends Omit<ToolSpec<{ type: 'object' }>, 'inputSchema' | 'inputExamples' | 'strict' | 'run'> {
  readonly grammar?: TextGrammar;
  readonly validate?: TextInput['validate'];
  readonly run: (input: string, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
}

/**
 * Defines a tool whose input is text rather than a JSON object: OpenAI's custom tools (free-form, or
 * constrained by a Lark or regex grammar), declared as such on OpenAI Responses and Chat Completions. Providers
 * without them are sent a function with one string parameter, `input` (the schema translator's change log
 * says so, `text-input-as-function`), and its argument is handed to `run` as the text. The four checks apply
 * as to any tool; the input check is the grammar and `validate` (see {@link TextInput}).
 */
export function defineTextTool(spec: TextToolSpec): ToolDefinition<string> {
  const { grammar, validate, run, ...rest } = spec;
  const textInput: TextInput = Object.freeze({
    ...(grammar === undefined ? {} : { grammar: Object.freeze({ ...grammar }) }),
    ...(validate === undefined ? {} : { validate }),
  });
  // defineTool checks nothing; the catalogue checks a text tool like any other (and its input by `textInput`).
  const definition = defineTool({ ...rest, inputSchema: TEXT_INPUT_SCHEMA, run: () => undefined });
  return Object.freeze({ ...definition, run, textInput }) as unknown as ToolDefinition<string>;
}

/**
 * The input check of a text tool, made once when the catalogue is built; a grammar that cannot be checked
 * here and no `validate` to stand in for it is refused then, naming the fix.
 */
export function textInputValidator(toolName: string, textInput: TextInput): InputValidator {
  const grammar = checkedGrammar(toolName, textInput);
  const matcher = grammar?.syntax === 'regex' ? compileRegex(grammar.definition) : undefined;
  if (grammar?.syntax === 'regex' && matcher === undefined && textInput.validate === undefined) {
    throw new InvalidToolDefinitionError(
      toolName,
      `its regex grammar ${JSON.stringify(grammar.definition.slice(0, 80))} is not a JavaScript regular expression, so its input could not be checked; rewrite it in the syntax both accept, or give a \`validate\` function.`,
    );
  }
  const own = textInput.validate;
  if (own !== undefined && typeof own !== 'function') {
    throw new InvalidToolDefinitionError(toolName, '`validate` must be a function `(text) => message | undefined`.');
  }
  const verdict = (text: string, problem: unknown): InputValidation => {
    if (problem === undefined || problem === null || problem === '') return { ok: true, value: text };
    return {
      ok: false,
      message: `The input for tool "${toolName}" was refused: ${String(problem)}`,
      issues: [{ path: [], message: `was refused: ${String(problem)}` }],
    };
  };
  return (input) => {
    if (typeof input !== 'string') {
      return {
        ok: false,
        message: `The tool "${toolName}" takes plain text as its input, not ${input === null ? 'null' : typeof input}. Send the text itself.`,
        issues: [{ path: [], message: `must be plain text, not ${input === null ? 'null' : typeof input}` }],
      };
    }
    if (matcher !== undefined && !matcher.test(input)) {
      return {
        ok: false,
        message: `The input for tool "${toolName}" does not match its grammar, the regular expression ${JSON.stringify(grammar?.definition)}. Send text that matches it whole.`,
        issues: [{ path: [], message: "must match the tool's grammar whole" }],
      };
    }
    if (own === undefined) return { ok: true, value: input };
    const unchecked: InputValidation = {
      ok: false,
      message: `The input for tool "${toolName}" could not be checked. Send simpler text.`,
      issues: [{ path: [], message: 'could not be checked' }],
    };
    try {
      const problem = own(input);
      if (isPromiseLike(problem))
        return Promise.resolve(problem).then(
          (found) => verdict(input, found),
          () => unchecked,
        );
      return verdict(input, problem);
    } catch {
      return unchecked;
    }
  };
}

function checkedGrammar(toolName: string, textInput: TextInput): TextGrammar | undefined {
  const grammar: unknown = textInput.grammar;
  if (grammar === undefined) return undefined;
  const { syntax, definition } = (grammar ?? {}) as { syntax?: unknown; definition?: unknown };
  if ((syntax !== 'lark' && syntax !== 'regex') || typeof definition !== 'string' || definition.trim() === '') {
    throw new InvalidToolDefinitionError(
      toolName,
      '`grammar` must be { syntax: "lark" | "regex", definition: "<non-empty grammar>" }, or left out for free-form text.',
    );
  }
  return { syntax, definition };
}

/** The whole text must match, as the provider's constrained sampling makes it; `u` first, as Rust's syntax reads. */
function compileRegex(definition: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(`^(?:${definition})$`, flags);
    } catch {
      // Try the next flags; a pattern neither compiles is one this engine cannot check.
    }
  }
  return undefined;
}
