// A run's structured answer on both OpenAI APIs, streamed through the SDK over HTTP (the answer's text
// cut in deltas, as the APIs stream it): partial objects on the event stream, the final one restored from
// strict mode's nulls and validated. The streams are made from the synthetic conformance cassettes. And a
// recorded 400 refusing a format, replayed.
import { type JsonObject, type JsonValue, OutputValidationError, ProviderError, runLoop } from '@toolcircuit/core';
import {
  loadCassette,
  runStructuredOutputScenario,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  startReplayServer,
  structuredOutputLoopOptions,
  structuredOutputProblems,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';

const common = { apiKey: 'test-key-not-secret', maxRetries: 0, env: {} } as const;

function pieces(text: string): string[] {
  return text.match(/[\s\S]{1,6}/g) ?? [];
}

/** A chat.completion as the chunks the API streams: content (or refusal) and call arguments in pieces. */
function chatChunks(completion: JsonObject): string {
  const [choice] = completion['choices'] as JsonObject[];
  const message = (choice?.['message'] ?? {}) as JsonObject;
  const base = {
    id: completion['id'],
    object: 'chat.completion.chunk',
    created: completion['created'],
    model: completion['model'],
  };
  const chunk = (delta: unknown, finish: JsonValue = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(String(message['content'] ?? ''))) chunks.push(chunk({ content: piece }));
  for (const piece of pieces(String(message['refusal'] ?? ''))) chunks.push(chunk({ refusal: piece }));
  ((message['tool_calls'] as JsonObject[] | undefined) ?? []).forEach((call, index) => {
    const fn = call['function'] as JsonObject;
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call['id'], type: 'function', function: { name: fn['name'], arguments: '' } }],
      }),
    );
    for (const piece of pieces(String(fn['arguments'])))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, choice?.['finish_reason'] ?? 'stop'));
  return `${chunks.map((item) => `data: ${JSON.stringify(item)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** A Responses API response as its events: each item added, its text or arguments in pieces, done; completed. */
function responsesEvents(response: JsonObject): string {
  const created = { ...response, status: 'in_progress', output: [], usage: null };
  const events: JsonObject[] = [{ type: 'response.created', response: created }];
  (response['output'] as JsonObject[]).forEach((item, index) => {
    if (item['type'] === 'function_call') {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const delta of pieces(String(item['arguments']))) {
        events.push({
          type: 'response.function_call_arguments.delta',
          output_index: index,
          item_id: item['id'] ?? '',
          delta,
        });
      }
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, content: [], status: 'in_progress' },
      });
      for (const part of item['content'] as JsonObject[]) {
        const refusal = part['type'] === 'refusal';
        const text = String(refusal ? part['refusal'] : part['text']);
        for (const delta of pieces(text)) {
          events.push({
            type: refusal ? 'response.refusal.delta' : 'response.output_text.delta',
            output_index: index,
            content_index: 0,
            item_id: item['id'] ?? '',
            delta,
          });
        }
      }
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response });
  return events
    .map(
      (event, sequence) =>
        `event: ${String(event['type'])}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`,
    )
    .join('');
}

const backends = {
  'openai-chat': {
    stream: chatChunks,
    createModel: ({ baseURL, modelId }: { baseURL: string; modelId: string }) =>
      createOpenAIChatModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
  },
  'openai-responses': {
    stream: responsesEvents,
    createModel: ({ baseURL, modelId }: { baseURL: string; modelId: string }) =>
      createOpenAIResponsesModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
  },
} as const;

describe('structured output streamed (synthetic streams of the conformance cassettes)', () => {
  for (const variant of STRUCTURED_OUTPUT_VARIANTS.filter((item) => item.protocol in backends)) {
    const backend = backends[variant.protocol as keyof typeof backends];
    for (const scenario of STRUCTURED_OUTPUT_SCENARIOS) {
      it(`${variant.protocol} ${scenario.id}: partial objects on the event stream, the final one validated`, async () => {
        const run = await runStructuredOutputScenario({ variant, scenario, ...backend });
        expect(structuredOutputProblems(run, variant, scenario)).toEqual([]);
        if (scenario.id !== 'structured_refusal') {
          // Strict mode's `null` for the omitted date shows in the preview, never in the validated answer.
          expect(run.partials.at(-1)?.['audience']).toBeNull();
          expect(run.result.output).not.toHaveProperty('audience');
        }
      });
    }
  }
});

describe('the provider refusing the format (real traffic: vercel-ai issue 6454)', () => {
  it('is a ProviderError naming text.format.schema, never an OutputValidationError', async () => {
    const server = await startReplayServer(
      loadCassette('openai-responses/vercel-ai__issue-6454-nested-definitions-error'),
    );
    try {
      const model = createOpenAIResponsesModel({ ...common, model: 'gpt-4.1', baseURL: `${server.url}/v1` });
      const error = await runLoop({
        model,
        ...structuredOutputLoopOptions('Donne-moi la fiche du dossier A-1234.'),
      }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).not.toBeInstanceOf(OutputValidationError);
      expect(error).toMatchObject({ code: 'invalid_request', status: 400, providerCode: 'invalid_json_schema' });
      expect((error as Error).message).toContain("reference to component '#/$defs/Shared' which was not found");
      expect((server.received[0]?.body as JsonObject | undefined)?.['text']).toMatchObject({
        format: { type: 'json_schema' },
      });
    } finally {
      await server.close();
    }
  });
});
