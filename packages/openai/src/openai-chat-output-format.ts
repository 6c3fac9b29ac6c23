import type { ModelRequest } from '@toolcircuit/core';
import { translateOutputSchema } from '@toolcircuit/schema';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { openAIOutputTarget } from './openai-shared-final-answer.js';

/**
 * The run's structured answer on Chat Completions: `response_format` `json_schema`, next to the tools (the
 * model calls tools or answers in the format). The schema goes through the translator as a tool's does, and
 * `strict` is kept unless strict mode would narrow the answer (then it is sent without, as such a tool is).
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs
 */
export function openAIChatOutputFields(request: ModelRequest): Pick<ChatCompletionCreateParamsBase, 'response_format'> {
  const format = request.output;
  if (format === undefined) return {};
  const translated = translateOutputSchema(format.schema, openAIOutputTarget(format), { name: format.name });
  return {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        ...(format.description === undefined ? {} : { description: format.description }),
        schema: translated.schema,
        strict: translated.strict,
      },
    },
  };
}
