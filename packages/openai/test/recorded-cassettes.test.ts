import type { JsonObject, Model, ModelRequest, ModelTurn, StreamEvent, ToolDeclaration } from '@toolcircuit/core';
import { ProviderError, toolCallsOf } from '@toolcircuit/core';
import {
  type Cassette,
  type CassetteProtocol,
  listCassettes,
  loadCassette,
  loadCassetteIndex,
  startReplayServer,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import {
  chatHistoryShape,
  chatRequestFromRecorded,
  type RecordedRequestShape,
  responsesHistoryShape,
  responsesRequestFromRecorded,
} from './support/recorded-history.js';
import {
  type ExpectedOutcome,
  expectedChatOutcome,
  expectedResponsesOutcome,
  isObject,
} from './support/recorded-oracle.js';
import { collect, rejectionOf } from './support/replay.js';

/**
 * Every imported real recording of both OpenAI protocols, replayed through the official SDK. Each holds a
 * tool call, a tool-result round trip or a provider error (checked below against INDEX.json), so none is
 * skipped: a cassette this adapter could not use would have to be listed in UNUSABLE with its reason.
 */
const UNUSABLE: Readonly<Record<string, string>> = {};

/** What each recorded provider error must become; every error cassette must be listed here. */
const EXPECTED_ERRORS: Readonly<Record<string, Partial<ProviderError>>> = {
  'openai-chat/pydantic-ai__test_openai_o1_mini_system_role[developer]': {
    code: 'invalid_request',
    status: 400,
    retryable: false,
    providerCode: 'unsupported_value',
  },
  'openai-responses/vercel-ai__issue-6454-nested-definitions-error': {
    code: 'invalid_request',
    status: 400,
    retryable: false,
    providerCode: 'invalid_json_schema',
  },
  'openai-responses/vercel-ai__openai-error.1': {
    code: 'rate_limited',
    status: 429,
    retryable: false,
    retryAfterMs: undefined,
    providerCode: 'insufficient_quota',
  },
  'openai-responses/vercel-ai__openai-error.1.chunks': {
    code: 'rate_limited',
    status: undefined,
    retryable: false,
    providerCode: 'insufficient_quota',
  },
};

const index = loadCassetteIndex();

function summaryOf(name: string) {
  const entry = index.entries.find((candidate) => candidate.cassette === name);
  if (entry?.responses === undefined) throw new Error(`${name} is not in INDEX.json`);
  return entry.responses;
}

interface Protocol {
  readonly protocol: CassetteProtocol;
  readonly expected: typeof expectedChatOutcome;
  readonly rebuild: (body: JsonObject, turns: readonly ModelTurn[]) => RecordedRequestShape;
  readonly shape: (body: JsonObject) => string[];
  readonly create: (cassette: Cassette, baseURL: string, shape: RecordedRequestShape | undefined) => Model;
}

const modelIdOf = (cassette: Cassette, body: JsonObject | undefined) =>
  typeof body?.['model'] === 'string' ? body['model'] : (cassette.model ?? 'gpt-4o');

const PROTOCOLS: readonly Protocol[] = [
  {
    protocol: 'openai-chat',
    expected: expectedChatOutcome,
    rebuild: chatRequestFromRecorded,
    shape: chatHistoryShape,
    create: (cassette, baseURL, shape) =>
      createOpenAIChatModel({
        model: modelIdOf(cassette, firstBody(cassette)),
        apiKey: 'sk-test',
        baseURL,
        maxRetries: 0,
        strict: shape?.strict ?? false,
        systemRole: shape?.systemRole ?? 'system',
      }),
  },
  {
    protocol: 'openai-responses',
    expected: expectedResponsesOutcome,
    rebuild: responsesRequestFromRecorded,
    shape: responsesHistoryShape,
    create: (cassette, baseURL, shape) =>
      createOpenAIResponsesModel({
        model: modelIdOf(cassette, firstBody(cassette)),
        apiKey: 'sk-test',
        baseURL,
        maxRetries: 0,
        strict: shape?.strict ?? false,
      }),
  },
];

/** The API root the recording was made against (`/v1` for OpenAI, `/api/v1` for OpenRouter…), as the SDK's baseURL path. */
function apiRootOf(cassette: Cassette): string {
  const path = cassette.interactions[0]?.request.path ?? '/v1/responses';
  return path.replace(/\/(chat\/completions|responses)$/, '');
}

function firstBody(cassette: Cassette): JsonObject | undefined {
  const body = cassette.interactions[0]?.request.body;
  return isObject(body) ? body : undefined;
}

/**
 * Cassettes without request bodies: a plain question, and the tools the recorded answer calls, declared as the
 * answer shows they were (a custom tool call's tool as a text tool, a built-in type's call's as that type).
 */
function fallbackRequest(outcome: ExpectedOutcome, turns: readonly ModelTurn[]): ModelRequest {
  const names = new Set(outcome.kind === 'turn' ? outcome.calls.map((call) => call.name) : []);
  for (const turn of turns) for (const call of toolCallsOf(turn.content)) names.add(call.name);
  const declared = new Map(outcome.kind === 'turn' ? outcome.calls.map((call) => [call.name, call.declared]) : []);
  const messages: ModelRequest['messages'] = [{ role: 'user', content: 'Go' }];
  const history = turns.flatMap((turn): ModelRequest['messages'] => {
    const calls = toolCallsOf(turn.content);
    return [
      { role: 'assistant', content: turn.content },
      ...(calls.length === 0
        ? []
        : [
            {
              role: 'tool' as const,
              content: calls.map((call) => ({
                type: 'tool_result' as const,
                callId: call.id,
                name: call.name,
                content: 'ok',
                isError: false,
              })),
            },
          ]),
    ];
  });
  return {
    messages: [...messages, ...history],
    tools: [...names].map((name): ToolDeclaration => {
      const kind = declared.get(name);
      if (kind === 'text') return { name, description: '', inputSchema: { type: 'string' }, textInput: {} };
      if (kind !== undefined) return { name, description: '', inputSchema: { type: 'object' }, builtin: { kind } };
      return { name, description: '', inputSchema: { type: 'object' } };
    }),
  };
}

type Result = { readonly turn: ModelTurn; readonly events?: StreamEvent[] } | { readonly error: unknown };

async function run(model: Model, request: ModelRequest, streaming: boolean): Promise<Result> {
  if (!streaming) {
    try {
      return { turn: await model.generate(request) };
    } catch (error) {
      return { error };
    }
  }
  if (model.stream === undefined) throw new Error('adapter has no stream()');
  const events = await collect(model.stream(request));
  const last = events.at(-1);
  expect(events.filter((event) => event.type === 'turn-end' || event.type === 'error')).toHaveLength(1);
  if (last?.type === 'error') return { error: last.error };
  if (last?.type !== 'turn-end') throw new Error('stream did not end with turn-end or error');
  expect(last.incompleteToolCallIds).toEqual([]);
  return { turn: last.turn, events };
}

for (const protocol of PROTOCOLS) {
  const names = listCassettes({ protocol: protocol.protocol });

  describe(`recorded ${protocol.protocol} cassettes`, () => {
    it('are all exercised: each holds a tool call, a round trip or an error, or is listed as unusable', () => {
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const responses = summaryOf(name);
        const relevant = responses.some(
          (response) =>
            response.toolCalls > 0 ||
            response.error !== undefined ||
            (response.sources ?? 0) > 0 ||
            (response.hostedItems ?? 0) > 0,
        );
        expect(relevant || name in UNUSABLE, name).toBe(true);
      }
      expect(UNUSABLE).toEqual({});
    });

    it.each(names.filter((name) => !(name in UNUSABLE)))('%s', async (name) => {
      const cassette = loadCassette(name);
      const summaries = summaryOf(name);
      const server = await startReplayServer(cassette);
      try {
        const first = firstBody(cassette);
        const model = protocol.create(
          cassette,
          `${server.url}${apiRootOf(cassette)}`,
          first && protocol.rebuild(first, []),
        );
        const turns: ModelTurn[] = [];
        for (const [position, interaction] of cassette.interactions.entries()) {
          const recordedBody = isObject(interaction.request.body) ? interaction.request.body : undefined;
          const outcome = protocol.expected(interaction.response);
          const request = recordedBody
            ? protocol.rebuild(recordedBody, turns).request
            : fallbackRequest(outcome, turns);
          const streaming = summaries[position]?.streaming ?? false;
          const result = await run(model, request, streaming);

          if (outcome.kind === 'error') {
            expect('error' in result, `${name} #${position + 1} should fail`).toBe(true);
            const error = 'error' in result ? result.error : undefined;
            expect(error).toBeInstanceOf(ProviderError);
            expect(error).toMatchObject({
              provider: 'openai',
              providerCode: outcome.providerCode,
              status: outcome.status,
            });
            expect(EXPECTED_ERRORS[name], `${name} needs an entry in EXPECTED_ERRORS`).toBeDefined();
            expect(error).toMatchObject(EXPECTED_ERRORS[name] ?? {});
            continue;
          }
          if ('error' in result) throw result.error;
          const { turn } = result;
          const calls = toolCallsOf(turn.content);
          expect(calls.map((call) => ({ id: call.id, name: call.name, input: call.input }))).toEqual(
            outcome.calls.map((call) => ({ id: call.id, name: call.name, input: call.input })),
          );
          expect(calls.every((call) => call.inputError === undefined)).toBe(true);
          expect(calls).toHaveLength(summaries[position]?.toolCalls ?? -1);
          expect(turn.stopReason.raw).toBe(outcome.rawStop);
          expect(turn.stopReason.unified).toBe(calls.length > 0 ? 'tool_calls' : 'end_turn');
          // Nothing the provider sent vanishes: every annotation is a source, every hosted item is kept.
          const sources = turn.content.flatMap((part) => (part.type === 'text' ? (part.sources ?? []) : []));
          expect(sources).toHaveLength(outcome.sources);
          const hosted = turn.providerMetadata?.['openai']?.['hostedItems'];
          const hostedTypes = Array.isArray(hosted)
            ? hosted.map((entry) => (isObject(entry) && isObject(entry['item']) ? entry['item']['type'] : undefined))
            : [];
          expect(hostedTypes).toEqual(outcome.hosted);
          expect(turn.content.filter((part) => part.type === 'provider')).toEqual([]);
          if (result.events !== undefined) {
            expect(result.events.filter((event) => event.type === 'source')).toHaveLength(outcome.sources);
            const ends = result.events.filter((event) => event.type === 'tool-call-end');
            expect(ends.map((event) => (event.type === 'tool-call-end' ? [event.id, event.input] : []))).toEqual(
              outcome.calls.map((call) => [call.id, call.input]),
            );
          }
          if (recordedBody !== undefined && position > 0) {
            // The adapter's own body for the round trip places results exactly like the recorded one.
            const sent = server.received[position]?.body;
            expect(isObject(sent) ? protocol.shape(sent) : []).toEqual(protocol.shape(recordedBody));
          }
          turns.push(turn);
        }
        expect(server.mismatches).toEqual([]);
        expect(server.remaining).toBe(0);
      } finally {
        await server.close();
      }
    });
  });
}

it('a recorded 429 is not retried by the adapter itself (SDK retries off): one request, one error', async () => {
  const cassette = loadCassette('openai-responses/vercel-ai__openai-error.1');
  const server = await startReplayServer(cassette);
  try {
    const model = createOpenAIResponsesModel({
      model: 'gpt-4o',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const error = await rejectionOf(model.generate({ messages: [{ role: 'user', content: 'Go' }], tools: [] }));
    expect(error).toMatchObject({ code: 'rate_limited', retryable: false });
    expect(server.received).toHaveLength(1);
  } finally {
    await server.close();
  }
});
