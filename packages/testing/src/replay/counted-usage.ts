import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { CassetteProtocol, RecordedResponse } from '../cassettes/cassette.js';
import type { ReceivedRequest } from './received-request.js';

/**
 * A `respond` for the replay server that reports, in each JSON response's usage, the input tokens `count`
 * gives for the request it answers, where each protocol puts them (Anthropic `usage.input_tokens` with no
 * cache, OpenAI Chat `usage.prompt_tokens`, Responses `usage.input_tokens`, Gemini
 * `usageMetadata.promptTokenCount`), totals made to match. A recorded answer's usage is the count of the
 * recorded request, not of this one: for a run whose requests differ (a context policy, a longer history),
 * this is what a provider would have said. Streamed bodies are sent as recorded.
 */
export function countedUsage(
  count: (received: ReceivedRequest) => number,
): (received: ReceivedRequest, response: RecordedResponse, protocol: CassetteProtocol) => RecordedResponse {
  return (received, response, protocol) => {
    const { body } = response;
    if (body.kind !== 'json' || !isObject(body.json)) return response;
    const tokens = count(received);
    return { ...response, body: { kind: 'json', json: withInputTokens(body.json, protocol, tokens) } };
  };
}

function withInputTokens(json: JsonObject, protocol: CassetteProtocol, tokens: number): JsonObject {
  switch (protocol) {
    case 'anthropic-messages': {
      const usage = objectAt(json, 'usage');
      return {
        ...json,
        usage: { ...usage, input_tokens: tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      };
    }
    case 'openai-chat': {
      const usage = objectAt(json, 'usage');
      const completion = numberAt(usage, 'completion_tokens');
      return { ...json, usage: { ...usage, prompt_tokens: tokens, total_tokens: tokens + completion } };
    }
    case 'openai-responses': {
      const usage = objectAt(json, 'usage');
      const output = numberAt(usage, 'output_tokens');
      return { ...json, usage: { ...usage, input_tokens: tokens, total_tokens: tokens + output } };
    }
    case 'gemini': {
      const usage = objectAt(json, 'usageMetadata');
      const candidates = numberAt(usage, 'candidatesTokenCount');
      const { promptTokensDetails: _details, ...rest } = usage;
      return {
        ...json,
        usageMetadata: { ...rest, promptTokenCount: tokens, totalTokenCount: tokens + candidates },
      };
    }
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(json: JsonObject, key: string): JsonObject {
  const value = json[key];
  return isObject(value) ? value : {};
}

function numberAt(json: JsonObject, key: string): number {
  const value = json[key];
  return typeof value === 'number' ? value : 0;
}
