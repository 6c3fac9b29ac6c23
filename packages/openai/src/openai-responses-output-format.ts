import type { ModelRequest } from '@toolcircuit/core';
import { translateOutputSchema } from '@toolcircuit/schema';
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import { openAIOutputTarget } from './openai-shared-final-answer.js';

/**
 * The run's structured answer on the Responses API: `text.format` `json_schema`, next to the tools, with
 * the translated schema and `strict` as on Chat Completions. Merged into a `text` the options bag may set
 * (`verbosity`): the run's format wins over a `format` there.
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses
 */
export function withOpenAIResponsesOutputFormat<T extends Pick<ResponseCreateParamsBase, 'text'>>(
  body: T,
  request: ModelRequest,
): T {
  const format = request.output;
  if (format === undefined) return body;
  const translated = translateOutputSchema(format.schema, openAIOutputTarget(format), { name: format.name });
  return {
    ...body,
    text: {
      ...body.text,
      format: {
        type: 'json_schema',
        name: format.name,
        ...(format.description === undefined ? {} : { description: format.description }),
        schema: translated.schema,
        strict: translated.strict,
      },
    },
  };
}
