import type { JSONOutputFormat } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '@toolcircuit/core';
import { answerToolRequest } from '@toolcircuit/core/provider';
import { translateOutputSchema } from '@toolcircuit/schema';

/**
 * How this adapter asks for a run's structured answer: `native`, Anthropic's structured outputs
 * (`output_config.format`, next to the tools), or `tool`, an answer tool the model must call to answer (see
 * `answerToolRequest` in core), for models without structured outputs.
 */
export type AnthropicStructuredOutput = 'native' | 'tool';

/**
 * Structured outputs are generally available on Claude Opus, Sonnet and Haiku from 4.5 on; other models
 * (Claude 3.x, Opus 4.1 and earlier, other families) get the answer tool, which every model with tool use
 * takes. The `structuredOutput` option overrides this guess.
 *
 * @see https://platform.claude.com/docs/en/build-with-claude/structured-outputs
 */
export function defaultAnthropicStructuredOutput(model: string): AnthropicStructuredOutput {
  const match = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(model);
  if (match === null) return 'tool';
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 5) ? 'native' : 'tool';
}

/** What a request with `output` becomes on the Messages API. */
export interface AnthropicOutput {
  /** The request to build: the answer tool added when it carries the answer. */
  readonly request: ModelRequest;
  /** `output_config.format`, when structured outputs carry the answer. */
  readonly format?: JSONOutputFormat;
  /** The answer tool's name, when it carries the answer: its call is the answer, never run. */
  readonly answerTool?: string;
}

/**
 * Native when the model has structured outputs and the answer's schema fits them (closed objects, no
 * recursion: `translateOutputSchema`); otherwise the answer tool, forced as "call a tool" (`any`) except
 * with extended thinking, which refuses forced tool use (the choice then stays `auto`).
 */
export function anthropicOutput(request: ModelRequest, mode: AnthropicStructuredOutput): AnthropicOutput {
  const output = request.output;
  if (output === undefined) return { request };
  if (mode === 'native') {
    const translated = translateOutputSchema(output.schema, 'anthropic', { name: output.name });
    if (translated.carrier === 'native') return { request, format: { type: 'json_schema', schema: translated.schema } };
  }
  return { request: answerToolRequest(request, { force: !thinks(request) }), answerTool: output.name };
}

function thinks(request: ModelRequest): boolean {
  const thinking = request.providerOptions?.['anthropic']?.['thinking'];
  if (thinking === null || typeof thinking !== 'object' || Array.isArray(thinking)) return false;
  return (thinking as { type?: unknown }).type !== 'disabled';
}
