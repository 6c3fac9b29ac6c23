import { createRequire } from 'node:module';
import { Anthropic, type ClientOptions } from '@anthropic-ai/sdk';
import type { AssistantMessage, JsonObject, Message, ModelRequest } from '@toolcircuit/core';
import type { RecordedWireRequest, ReplyScript } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest, createAnthropicModel } from '../src/index.js';
import { jsonReply, type Mode, runScript, SCRIPT, sseReply } from './multi-step-run.js';
import { startTestRecordingServer } from './recording-server.js';
import { MODEL_ID, message } from './replay.js';
import { CASE_FILE_REQUEST } from './scenario.js';

const API_KEY = 'test-key-not-secret';
const DEFAULT_HEADERS = { 'x-team': 'circuit' };

function clientOf(url: string, extra: ClientOptions = {}): Anthropic {
  return new Anthropic({ apiKey: API_KEY, baseURL: url, maxRetries: 0, defaultHeaders: DEFAULT_HEADERS, ...extra });
}

/** A server that answers the script's turns in order (again from the start after the last), as JSON or SSE. */
function scripted(mode: Mode): ReplyScript {
  return (_request, index) => {
    const turn = SCRIPT[index % SCRIPT.length];
    if (turn === undefined) throw new Error('empty script');
    return mode === 'generate' ? jsonReply(turn, `msg_${index}`) : sseReply(turn, `msg_${index}`);
  };
}

function bodyOf(request: RecordedWireRequest | undefined): JsonObject {
  if (request === undefined) throw new Error('no request recorded');
  return JSON.parse(request.text) as JsonObject;
}

// What the SDK sends when it serialises the body itself: the same request converted from fresh copies (no
// cached conversion, no cached text), given to `messages.create` without a body option.
async function sdkOwnBytes(requests: readonly ModelRequest[], mode: Mode): Promise<readonly RecordedWireRequest[]> {
  const server = await startTestRecordingServer((request) =>
    bodyOf(request)['stream'] === true
      ? sseReply({ content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' }, 'msg_ref')
      : { contentType: 'application/json', text: JSON.stringify(message([{ type: 'text', text: 'ok' }], 'end_turn')) },
  );
  const client = clientOf(server.url);
  for (const request of requests) {
    const { body } = buildAnthropicRequest(structuredClone(request), { model: MODEL_ID, maxTokens: 4096 });
    if (mode === 'generate') await client.messages.create({ ...body, stream: false });
    else for await (const _event of await client.messages.create({ ...body, stream: true }));
  }
  return server.requests;
}

function withoutHost(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { host: _host, ...rest } = headers;
  return rest;
}

describe.each<Mode>(['generate', 'stream'])('request body sent as text (%s)', (mode) => {
  it('is byte for byte what the SDK would send itself, at every step of a multi-step run', async () => {
    const server = await startTestRecordingServer(scripted(mode));
    const model = createAnthropicModel({ model: MODEL_ID, client: clientOf(server.url) });
    const requests = await runScript(model, mode);
    const reference = await sdkOwnBytes(requests, mode);

    expect(server.requests).toHaveLength(SCRIPT.length);
    expect(reference).toHaveLength(SCRIPT.length);
    server.requests.forEach((sent, step) => {
      const own = reference[step];
      expect(sent.text).toBe(own?.text);
      expect(sent.bytes.equals(own?.bytes ?? Buffer.alloc(0))).toBe(true);
      // Every header the SDK would have sent, no more: content-type, the client's default headers, and the
      // two header params (taken out of the body by the SDK, and so out of the text).
      expect(withoutHost(sent.headers)).toEqual(withoutHost(own?.headers ?? {}));
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers['x-team']).toBe('circuit');
      expect(sent.headers['anthropic-workspace-id']).toBe('wrkspc_test');
      expect(sent.headers['anthropic-user-profile-id']).toBe('prof_test');
      expect(sent.text).not.toContain('wrkspc_test');
    });

    // The run did exercise what it is meant to: thinking sent back, JSON results, a merged user text.
    const last = bodyOf(server.requests.at(-1));
    expect(last['stream']).toBe(mode === 'stream');
    expect(last['thinking']).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const messages = last['messages'] as { role: string; content: { type: string; text?: string }[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[1]?.content.map((b) => b.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
      'tool_use',
    ]);
    expect(messages[2]?.content[0]).toMatchObject({
      type: 'tool_result',
      content: [
        { type: 'text', text: 'found' },
        { type: 'text', text: '{"numero":"A-1234","statut":"ouvert","notes":["é",null,1.5]}' },
      ],
    });
    expect(messages[4]?.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('serialises each history message once over the whole run, not once per step', async () => {
    const { counts, history, keep } = countingMessages();
    const server = await startTestRecordingServer(scripted(mode));
    const model = createAnthropicModel({ model: MODEL_ID, client: clientOf(server.url) });
    await runScript(model, mode, { history, keep });

    expect(server.requests).toHaveLength(SCRIPT.length);
    // The first history's call went out in all three requests, each later call in the requests after it:
    // without the cached text these would be 3, 2 and 1.
    expect(counts).toEqual({ toolu_0: 1, toolu_1: 1, toolu_2: 1, toolu_3: 1 });
    // And the count does count serialisations: each request did carry the counted call.
    for (const sent of server.requests) expect(sent.text).toContain('"counted":"toolu_0"');
  });

  it('leaves the body to the SDK for a subclass of the client, which may read the body object', async () => {
    class TeamAnthropic extends Anthropic {}
    const { counts, history, keep } = countingMessages();
    const server = await startTestRecordingServer(scripted(mode));
    const client = new TeamAnthropic({ apiKey: API_KEY, baseURL: server.url, maxRetries: 0 });
    await runScript(createAnthropicModel({ model: MODEL_ID, client }), mode, { history, keep });

    // The SDK's own JSON.stringify of the whole body, at every step.
    expect(counts).toEqual({ toolu_0: 3, toolu_1: 2, toolu_2: 2, toolu_3: 1 });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('leaves the body to the SDK for a client with its own tracer, so the call span keeps its attributes', async () => {
    const tracing = recordingTracerProvider();
    const { counts, history, keep } = countingMessages();
    const server = await startTestRecordingServer(scripted(mode));
    const client = clientOf(server.url, { openTelemetry: { tracerProvider: tracing.provider } });
    await runScript(createAnthropicModel({ model: MODEL_ID, client }), mode, { history, keep });

    expect(counts['toolu_0']).toBe(3);
    const calls = tracing.spans.filter((span) => span.name === 'anthropic.messages.create');
    expect(calls).toHaveLength(SCRIPT.length);
    for (const span of calls) {
      expect(span.attributes['gen_ai.request.model']).toBe(MODEL_ID);
      expect(span.attributes['gen_ai.request.max_tokens']).toBe(2048);
    }
  });

  it('leaves the body to the SDK while a tracer provider is registered globally, and not once it is removed', async () => {
    const { trace } = openTelemetryApi();
    const tracing = recordingTracerProvider();
    const traced = countingMessages();
    const server = await startTestRecordingServer(scripted(mode));
    // As an application does: OpenTelemetry set up first, then the clients.
    expect(trace.setGlobalTracerProvider(tracing.provider)).toBe(true);
    try {
      const model = createAnthropicModel({ model: MODEL_ID, client: clientOf(server.url) });
      await runScript(model, mode, { history: traced.history, keep: traced.keep });
    } finally {
      trace.disable();
    }
    expect(traced.counts['toolu_0']).toBe(3);
    const calls = tracing.spans.filter((span) => span.name === 'anthropic.messages.create');
    expect(calls.map((span) => span.attributes['gen_ai.request.model'])).toEqual([MODEL_ID, MODEL_ID, MODEL_ID]);

    const untraced = countingMessages();
    const model = createAnthropicModel({ model: MODEL_ID, client: clientOf(server.url) });
    await runScript(model, mode, { history: untraced.history, keep: untraced.keep });
    expect(server.requests).toHaveLength(2 * SCRIPT.length);
    expect(untraced.counts['toolu_0']).toBe(1);
  });
});

describe('frozen, shared pieces of the body', () => {
  const SETTINGS = { model: 'claude-test', maxTokens: 1024 };

  it('sends the same frozen tool list and the same frozen earlier messages at the next step', () => {
    const first = buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS).body;
    const next: ModelRequest = {
      ...CASE_FILE_REQUEST,
      messages: [...CASE_FILE_REQUEST.messages, { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }],
    };
    const second = buildAnthropicRequest(next, SETTINGS).body;

    expect(second.tools).toBe(first.tools);
    expect(Object.isFrozen(second.tools)).toBe(true);
    expect(second.tools?.every((tool) => Object.isFrozen(tool))).toBe(true);
    expect(second.messages.slice(0, 3)).toHaveLength(3);
    second.messages.slice(0, 3).forEach((sent, index) => {
      expect(sent).toBe(first.messages[index]);
      expect(Object.isFrozen(sent)).toBe(true);
      expect(Object.isFrozen(sent.content)).toBe(true);
    });
    expect(second.messages[3]).not.toBe(first.messages[3]);
  });

  it('makes a new message for a turn that gains a merged user text, and keeps the old one unchanged', () => {
    const alone = buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS).body.messages[2];
    const merged: ModelRequest = {
      ...CASE_FILE_REQUEST,
      messages: [...CASE_FILE_REQUEST.messages, { role: 'user', content: 'And quickly.' }],
    };
    const grown = buildAnthropicRequest(merged, SETTINGS).body.messages[2];

    expect(grown).not.toBe(alone);
    expect(grown?.content).toHaveLength(3);
    expect(alone?.content).toHaveLength(2);
    expect(Object.isFrozen(alone?.content)).toBe(true);
    // One cached message per turn start, like the per-message conversions: going back converts again.
    expect(buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS).body.messages[2]).toEqual(alone);
  });
});

/**
 * A first history whose tool call counts how often it is serialised (a non-enumerable `toJSON` on its input,
 * which `JSON.stringify` calls every time it writes the block), and a `keep` that does the same for the calls
 * of every turn the run appends.
 */
function countingMessages(): {
  counts: Record<string, number>;
  history: readonly Message[];
  keep: (assistant: AssistantMessage) => AssistantMessage;
} {
  const counts: Record<string, number> = {};
  const counted = (id: string, input: JsonObject): JsonObject => {
    counts[id] = 0;
    const plain = { ...input, counted: id };
    return Object.defineProperty({ ...plain }, 'toJSON', {
      enumerable: false,
      value: () => {
        counts[id] = (counts[id] ?? 0) + 1;
        return plain;
      },
    });
  };
  const history: readonly Message[] = [
    { role: 'user', content: 'Open case Z-0000 first.' },
    {
      role: 'assistant',
      content: [{ type: 'tool_call', id: 'toolu_0', name: 'chercher_dossier', input: counted('toolu_0', {}) }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool_result', callId: 'toolu_0', name: 'chercher_dossier', content: 'no', isError: true }],
    },
  ];
  const keep = (assistant: AssistantMessage): AssistantMessage => ({
    ...assistant,
    content: assistant.content.map((part) =>
      part.type === 'tool_call' && part.input !== undefined && typeof part.input === 'object' && part.input !== null
        ? { ...part, input: counted(part.id, part.input as JsonObject) }
        : part,
    ),
  });
  return { counts, history, keep };
}

/**
 * The real @opentelemetry/api, the copy the SDK depends on (not a dependency of this package): registering a
 * provider with it is what an application's OpenTelemetry setup does.
 */
function openTelemetryApi(): {
  trace: { setGlobalTracerProvider(provider: TracerProvider): boolean; disable(): void };
} {
  const sdkEntry = createRequire(import.meta.url).resolve('@anthropic-ai/sdk');
  return createRequire(sdkEntry)('@opentelemetry/api') as ReturnType<typeof openTelemetryApi>;
}

interface RecordedSpan {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
}

type TracerProvider = NonNullable<Exclude<ClientOptions['openTelemetry'], false | undefined>['tracerProvider']>;

/** An application's OpenTelemetry tracer provider (the parts the SDK uses) that keeps every span, recording. */
function recordingTracerProvider(): { provider: TracerProvider; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const startSpan = (name: string, options?: { attributes?: Record<string, unknown> }) => {
    const record: RecordedSpan = { name, attributes: { ...options?.attributes } };
    spans.push(record);
    const span = {
      spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
      setAttribute: (key: string, value: unknown) => {
        record.attributes[key] = value;
        return span;
      },
      setAttributes: (attributes: Record<string, unknown>) => {
        Object.assign(record.attributes, attributes);
        return span;
      },
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: () => span,
      updateName: () => span,
      recordException: () => undefined,
      end: () => undefined,
      isRecording: () => true,
    };
    return span;
  };
  const tracer = {
    startSpan,
    startActiveSpan: () => {
      throw new Error('not used by the SDK');
    },
  };
  return { provider: { getTracer: () => tracer } as unknown as TracerProvider, spans };
}
