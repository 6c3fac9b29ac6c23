import {
  type JsonObject,
  type JsonValue,
  type ModelTurn,
  ProviderError,
  type StreamEvent,
  toolCallsOf,
} from '@toolcircuit/core';
import { listCassettes, loadCassette, loadCassetteIndex, startReplayServer } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import {
  type ExpectedOutcome,
  expectedOutcome,
  isObject,
  isStreamed,
  neutralRequestOf,
  normalBody,
} from './recorded.js';
import { collect, streamFrom } from './stream-events.js';

// Every imported Anthropic recording (packages/testing/cassettes/anthropic) through the adapter, the real SDK
// and HTTP. Cassettes without a recorded request (body-only fixtures) are asked with a minimal request.
const ALL = listCassettes({ protocol: 'anthropic-messages' });
const INDEX = loadCassetteIndex();

/**
 * The model id every replay sends. The recorded ids are historic, and the SDK prints an end-of-life warning
 * on each request naming a deprecated one; the path (`/v1/messages`) does not carry the model, so a current
 * id replays the same traffic, and the body comparison puts the recorded id back.
 */
const REPLAY_MODEL = 'claude-sonnet-5-5';

function asRecordedModel(sent: JsonValue | undefined, recorded: JsonObject | undefined): JsonValue | undefined {
  if (!isObject(sent) || typeof recorded?.['model'] !== 'string') return sent;
  expect(sent['model']).toBe(REPLAY_MODEL);
  return { ...sent, model: recorded['model'] };
}

function summaries(name: string) {
  return INDEX.entries.find((entry) => entry.cassette === name)?.responses ?? [];
}

/**
 * Every recording with something for the adapter to keep: a call, an error, a citation, a server tool's block,
 * or a request that sends a previous answer back (redacted thinking, say).
 */
const RELEVANT = ALL.filter((name) =>
  summaries(name).some(
    (r) =>
      r.toolCalls > 0 ||
      r.status >= 400 ||
      r.error !== undefined ||
      (r.sources ?? 0) > 0 ||
      (r.hostedItems ?? 0) > 0 ||
      /thinking/.test(name),
  ),
);

/** Recordings with nothing for this test (no tool call, tool result or error), each with why. */
const NOT_RELEVANT: Readonly<Record<string, string>> = {};

/** Recordings that hold calls or errors but cannot be replayed through the adapter, each with why. */
const UNUSABLE: Readonly<Record<string, string>> = {};

/**
 * Streaming recordings next to a non-streaming one of the same fixture name, but of a DIFFERENT exchange
 * (other message id, model or answer), so their turns cannot be compared; the synthetic parity test in
 * anthropic-stream.test.ts covers stream = generate instead.
 */
const NOT_SAME_EXCHANGE: Readonly<Record<string, string>> = {
  'anthropic/vercel-ai__anthropic-issue-11719-quoted-tool-input.chunks':
    'msg_011CdFVpY8ZSiJdMWvbXZUUC vs msg_011CdFVpN6K4ZeYJpQWnJE41: another sampling, other argument text',
  'anthropic/vercel-ai__anthropic-json-tool.1.chunks':
    'msg_01K2JbSUMYhez5RHoK9ZCj9U vs msg_0191iYfpERYfS27xLsdW2nbb: 1 element vs 3',
  'anthropic/vercel-ai__anthropic-tool-no-args.chunks':
    'claude-sonnet-4-5 stream vs claude-3-opus non-streaming answer',
};

/**
 * Interactions (`cassette#index`) whose recorded request the adapter cannot and should not reproduce
 * exactly, each with why; the test checks what it can instead.
 */
const SHAPE_DIFFERS: Readonly<Record<string, string>> = {
  'anthropic/anthropic-sdk-python__TestSyncRunTools__f59a9391-643b-422c-96dc-1f28bc7ea4d7#1':
    'the recorded client dropped the assistant tool_use message on purpose (to provoke the recorded 400); ' +
    'rebuilt neutrally, the adapter puts the tool_result before the user text, as the API requires, so only ' +
    'the block order differs',
};

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const UNIFIED: Readonly<Record<string, string>> = {
  tool_use: 'tool_calls',
  max_tokens: 'max_tokens',
  end_turn: 'end_turn',
};
const CODE_BY_STATUS: Readonly<Record<number, string>> = { 400: 'invalid_request', 429: 'rate_limited' };

type Outcome =
  | { kind: 'turn'; turn: ModelTurn; incomplete: readonly string[]; events?: readonly StreamEvent[] }
  | { kind: 'error'; error: ProviderError };

function outcomeOfStream(events: readonly StreamEvent[]): Outcome {
  const last = events.at(-1);
  expect(events.filter((e) => e.type === 'turn-end' || e.type === 'error')).toHaveLength(1);
  if (last?.type === 'turn-end') {
    return { kind: 'turn', turn: last.turn, incomplete: last.incompleteToolCallIds, events };
  }
  if (last?.type === 'error' && last.error instanceof ProviderError) return { kind: 'error', error: last.error };
  throw new Error(`stream ended with ${JSON.stringify(last)}`);
}

function checkOutcome(outcome: Outcome, expected: ExpectedOutcome, summaryCalls: number | undefined): void {
  if (expected.kind === 'error') {
    if (outcome.kind !== 'error') throw new Error(`expected a provider error, got ${JSON.stringify(outcome)}`);
    expect(outcome.error).toMatchObject({
      code: CODE_BY_STATUS[expected.status],
      status: expected.status,
      providerCode: expected.type,
      requestId: expected.requestId,
      retryable: expected.shouldRetry === undefined ? expected.status === 429 : expected.shouldRetry === 'true',
      retryAfterMs: undefined,
    });
    return;
  }
  if (outcome.kind !== 'turn') throw new Error(`expected a turn, got ${outcome.error.message}`);
  const calls = toolCallsOf(outcome.turn.content);
  expect(calls.map(({ id, name, input }) => ({ id, name, input }))).toEqual(expected.calls);
  expect(calls).toHaveLength(summaryCalls ?? calls.length);
  expect(outcome.incomplete).toEqual(expected.incomplete);
  for (const call of calls) {
    // A cut-off call carries why; a complete one carries nothing.
    expect(call.inputError !== undefined).toBe(expected.incomplete.includes(call.id));
  }
  expect(outcome.turn.stopReason.raw).toBe(expected.stopReason ?? undefined);
  // Nothing the provider sent vanishes: every citation is a source, every server tool's block is kept.
  const sources = outcome.turn.content.flatMap((part) => (part.type === 'text' ? (part.sources ?? []) : []));
  expect(sources).toHaveLength(expected.sources);
  const server = outcome.turn.providerMetadata?.['anthropic']?.['serverBlocks'];
  expect(Array.isArray(server) ? server.length : 0).toBe(expected.serverBlocks);
  expect(outcome.turn.content.filter((part) => part.type === 'provider')).toEqual([]);
  if (outcome.events !== undefined) {
    expect(outcome.events.filter((event) => event.type === 'source')).toHaveLength(expected.sources);
  }
  const unified =
    expected.stopReason === 'end_turn' && calls.length > 0 ? 'tool_calls' : UNIFIED[expected.stopReason ?? ''];
  expect(outcome.turn.stopReason.unified).toBe(unified);
}

function toolResultIds(body: JsonObject | undefined): string[] {
  const messages = Array.isArray(body?.['messages']) ? body['messages'] : [];
  const last = messages.at(-1);
  const content = isObject(last) && Array.isArray(last['content']) ? last['content'] : [];
  return content.flatMap((block) =>
    isObject(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string'
      ? [block['tool_use_id']]
      : [],
  );
}

// Each message's blocks as a sorted list of JSON texts: the same blocks, whatever their order.
function blockSets(body: JsonObject): string[][] {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isObject) : [];
  return messages.map((m) => (Array.isArray(m['content']) ? m['content'].map(canonical).sort() : []));
}

function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key] ?? null)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// Marks a user message where a text block comes before a tool_result block (the API refuses that order).
function firstBlockTypes(body: JsonObject): string[] {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isObject) : [];
  return messages.map((m) => {
    const types = Array.isArray(m['content']) ? m['content'].map((b) => (isObject(b) ? String(b['type']) : '')) : [];
    const firstText = types.indexOf('text');
    return firstText !== -1 && types.lastIndexOf('tool_result') > firstText ? 'text-before-result' : 'ok';
  });
}

describe('recorded Anthropic cassettes', () => {
  it('accounts for every cassette of the protocol', () => {
    expect(ALL.length).toBeGreaterThan(0);
    expect(ALL.filter((name) => !RELEVANT.includes(name))).toEqual(Object.keys(NOT_RELEVANT));
    expect(Object.keys(UNUSABLE)).toEqual([]);
    for (const name of Object.keys(NOT_SAME_EXCHANGE)) expect(ALL).toContain(name);
    for (const key of Object.keys(SHAPE_DIFFERS)) expect(ALL).toContain(key.slice(0, key.lastIndexOf('#')));
  });

  it.each(RELEVANT.filter((name) => UNUSABLE[name] === undefined))('%s', async (name) => {
    const cassette = loadCassette(name);
    const server = await startReplayServer(cassette);
    servers.push(server);
    const responses = summaries(name);
    let previous: ModelTurn | undefined;
    let previousCalls: readonly string[] = [];
    for (const [position, interaction] of cassette.interactions.entries()) {
      const key = `${name}#${position}`;
      const recordedBody = isObject(interaction.request.body) ? interaction.request.body : undefined;
      const rebuilt =
        recordedBody === undefined
          ? {
              request: { messages: [{ role: 'user' as const, content: 'Replay of a recorded response.' }], tools: [] },
              replaced: false,
            }
          : neutralRequestOf(recordedBody, previous);
      const resultIds = toolResultIds(recordedBody);
      if (
        resultIds.length > 0 &&
        resultIds.every((id) => previousCalls.includes(id)) &&
        SHAPE_DIFFERS[key] === undefined
      ) {
        // A request answering the previous response is rebuilt from the adapter's own turn: a real round trip.
        expect(rebuilt.replaced).toBe(true);
      }
      const model = createAnthropicModel({
        model: REPLAY_MODEL,
        apiKey: 'test-key',
        baseURL: server.url,
        maxRetries: 0,
      });

      const outcome: Outcome = isStreamed(interaction.response)
        ? outcomeOfStream(await collect(streamFrom(model, rebuilt.request)))
        : await model.generate(rebuilt.request).then(
            (turn): Outcome => ({ kind: 'turn', turn, incomplete: [] }),
            (error: unknown): Outcome => {
              if (!(error instanceof ProviderError)) throw error;
              return { kind: 'error', error };
            },
          );
      expect(server.mismatches).toEqual([]);
      const sent = normalBody(asRecordedModel(server.received[position]?.body, recordedBody));
      if (recordedBody !== undefined && SHAPE_DIFFERS[key] === undefined) {
        // Same history, tool_result placement, thinking echo and tools as the recorded client sent.
        expect(sent).toEqual(normalBody(recordedBody, { translateSchemas: true }));
      } else if (recordedBody !== undefined) {
        expect(blockSets(sent)).toEqual(blockSets(normalBody(recordedBody, { translateSchemas: true })));
        expect(firstBlockTypes(sent)).not.toContain('text-before-result');
      }
      const expected = expectedOutcome(interaction.response);
      checkOutcome(outcome, expected, responses[position]?.toolCalls);
      previous = outcome.kind === 'turn' ? outcome.turn : undefined;
      previousCalls = expected.kind === 'turn' ? expected.calls.map((call) => call.id) : [];
    }
  });

  it("the SDK's own retries on the recorded 429s (x-should-retry: true, no retry-after) reach the recorded 200", async () => {
    const cassette = loadCassette(
      'anthropic/anthropic-sdk-python__TestAsyncParse__d743d628-16aa-4c9f-ae78-51deb578f746',
    );
    const server = await startReplayServer(cassette);
    servers.push(server);
    const body = cassette.interactions[0]?.request.body;
    if (!isObject(body)) throw new Error('recorded request expected');
    const model = createAnthropicModel({ model: REPLAY_MODEL, apiKey: 'k', baseURL: server.url, maxRetries: 2 });
    const turn = await model.generate(neutralRequestOf(body, undefined).request);
    expect(server.received.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    expect(turn.stopReason).toEqual({ unified: 'end_turn', raw: 'end_turn' });
  });
});
