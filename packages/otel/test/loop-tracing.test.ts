import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import {
  continueLoop,
  createCatalogue,
  createSession,
  defineTool,
  InMemoryJournal,
  interruptedRunOfError,
  ProviderError,
  resumeLoop,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import { createLoopTracing, GEN_AI, type TraceRecord } from '@toolcircuit/otel';
import { createScriptedModel, createScriptedStreamingModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up a case by number.',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'cases:read',
  run: ({ numero }) => ({ numero, status: 'open' }),
});
const close = defineTool({
  name: 'close',
  description: 'Close a case for good.',
  inputSchema: { type: 'object', properties: { numero: { type: 'string' } }, required: ['numero'] },
  right: 'cases:close',
  irreversible: true,
  run: ({ numero }) => `closed ${numero}`,
});
const catalogue = createCatalogue([lookup, close]);
const session = () => createSession({ id: 's-1', humanId: 'ana', rights: ['cases:read', 'cases:close'] });

function tracerSetup() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

describe('attribute names', () => {
  it('are the GenAI conventions names published in @opentelemetry/semantic-conventions 1.45', () => {
    const published = semconv as unknown as Record<string, string>;
    const expected: Record<keyof typeof GEN_AI, string | undefined> = {
      operationName: published['ATTR_GEN_AI_OPERATION_NAME'],
      providerName: published['ATTR_GEN_AI_PROVIDER_NAME'],
      agentName: published['ATTR_GEN_AI_AGENT_NAME'],
      conversationId: published['ATTR_GEN_AI_CONVERSATION_ID'],
      requestModel: published['ATTR_GEN_AI_REQUEST_MODEL'],
      requestMaxTokens: published['ATTR_GEN_AI_REQUEST_MAX_TOKENS'],
      requestTemperature: published['ATTR_GEN_AI_REQUEST_TEMPERATURE'],
      requestStream: published['ATTR_GEN_AI_REQUEST_STREAM'],
      responseModel: published['ATTR_GEN_AI_RESPONSE_MODEL'],
      responseId: published['ATTR_GEN_AI_RESPONSE_ID'],
      responseFinishReasons: published['ATTR_GEN_AI_RESPONSE_FINISH_REASONS'],
      responseTimeToFirstChunk: published['ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK'],
      usageInputTokens: published['ATTR_GEN_AI_USAGE_INPUT_TOKENS'],
      usageOutputTokens: published['ATTR_GEN_AI_USAGE_OUTPUT_TOKENS'],
      usageCacheReadInputTokens: published['ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS'],
      usageReasoningOutputTokens: published['ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS'],
      toolName: published['ATTR_GEN_AI_TOOL_NAME'],
      toolCallId: published['ATTR_GEN_AI_TOOL_CALL_ID'],
      toolType: published['ATTR_GEN_AI_TOOL_TYPE'],
      toolDescription: published['ATTR_GEN_AI_TOOL_DESCRIPTION'],
      toolCallArguments: published['ATTR_GEN_AI_TOOL_CALL_ARGUMENTS'],
      toolCallResult: published['ATTR_GEN_AI_TOOL_CALL_RESULT'],
      inputMessages: published['ATTR_GEN_AI_INPUT_MESSAGES'],
      outputMessages: published['ATTR_GEN_AI_OUTPUT_MESSAGES'],
      systemInstructions: published['ATTR_GEN_AI_SYSTEM_INSTRUCTIONS'],
      errorType: published['ATTR_ERROR_TYPE'],
    };
    expect(GEN_AI).toEqual(expected);
    expect(published['GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT']).toBe('invoke_agent');
    expect(published['GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL']).toBe('execute_tool');
    expect(published['GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI']).toBe('gcp.gemini');
  });
});

describe('createLoopTracing', () => {
  it('with content capture: arguments, results, refusal text and messages; retries counted per tool', async () => {
    const { exporter, tracer } = tracerSetup();
    const tracing = await createLoopTracing({ tracer, captureContent: true });
    const model = createScriptedModel([
      toolCallsTurn([{ name: 'lookup', input: { numero: 'b-1' } }]),
      toolCallsTurn([{ name: 'lookup', input: { numero: 'bad' } }]),
      toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0001' } }]),
      textTurn('done'),
    ]);
    const result = await tracing.runLoop({
      model,
      catalogue,
      session: session(),
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'find it' }],
    });
    expect(result.status).toBe('completed');
    const tools = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes[GEN_AI.operationName] === 'execute_tool');
    expect(tools.map((span) => span.attributes['toolcircuit.retries'])).toEqual([0, 1, 2]);
    expect(tools.map((span) => span.attributes['toolcircuit.verdict'])).toEqual(['refused', 'refused', 'executed']);
    expect(tools[0]?.attributes['gen_ai.tool.call.arguments']).toBe('{"numero":"b-1"}');
    expect(String(tools[0]?.attributes['toolcircuit.reason.message'])).toContain('numero');
    expect(tools[2]?.attributes['gen_ai.tool.call.result']).toBe('{"numero":"A-0001","status":"open"}');
    // No journal: no entry digest, but the input digest is the executor's.
    expect(tools[2]?.attributes['toolcircuit.journal.entry_digest']).toBeUndefined();
    expect(tools[2]?.attributes['toolcircuit.input.digest']).toMatch(/^[0-9a-f]{64}$/);
    const chat = exporter.getFinishedSpans().find((span) => span.attributes['toolcircuit.turn'] === 4);
    expect(JSON.parse(String(chat?.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'done' }], finish_reason: 'end_turn' },
    ]);
    const input = JSON.parse(String(chat?.attributes['gen_ai.input.messages'])) as { role: string }[];
    expect(input.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(chat?.attributes['gen_ai.system_instructions']).toBe('[{"type":"text","content":"Be brief."}]');
  });

  it('taint: output trust, how many untrusted results a call followed, and why a gated call waits, from the journal', async () => {
    const { exporter, tracer } = tracerSetup();
    const tracing = await createLoopTracing({ tracer });
    const model = createScriptedModel([
      toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0001' } }]),
      // Copied from the (untrusted) lookup result: the gate flags it.
      toolCallsTurn([{ name: 'close', input: { numero: 'A-0001' } }]),
    ]);
    const result = await tracing.runLoop({
      model,
      catalogue,
      session: session(),
      journal: new InMemoryJournal(),
      confirmation: 'pause',
      messages: [{ role: 'user', content: 'close A-0001' }],
    });
    expect(result.status).toBe('paused');
    const tools = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes[GEN_AI.operationName] === 'execute_tool');
    expect(tools.map((span) => span.attributes['toolcircuit.provenance.output_trust'])).toEqual([
      'untrusted',
      'untrusted',
    ]);
    expect(tools.map((span) => span.attributes['toolcircuit.provenance.tainted_by'])).toEqual([0, 1]);
    expect(tools[0]?.attributes['toolcircuit.provenance.gated_because']).toBeUndefined();
    expect(tools[1]?.attributes['toolcircuit.verdict']).toBe('awaiting_confirmation');
    expect(tools[1]?.attributes['toolcircuit.provenance.gated_because']).toBe('irreversible');
    expect(tools[1]?.attributes['toolcircuit.provenance.taint_digest']).toMatch(/^[0-9a-f]{64}$/);
    const flagged = tools[1]?.attributes['toolcircuit.provenance.flagged_arguments'] as string[] | undefined;
    expect(flagged).toHaveLength(1);
    expect(flagged?.[0]).toMatch(/numero/);
    // Paths only: the argument's value never reaches the span without content capture.
    expect(JSON.stringify(tools[1]?.attributes)).not.toContain('A-0001');
  });

  it('streamLoop: the same spans, time to first chunk on chat spans, the agent span ends with the result', async () => {
    const { exporter, tracer } = tracerSetup();
    const tracing = await createLoopTracing({ tracer });
    const stream = tracing.streamLoop({
      model: createScriptedStreamingModel([
        toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0001' } }]),
        textTurn('ok'),
      ]),
      catalogue,
      session: session(),
      messages: [{ role: 'user', content: 'go' }],
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect((await stream.result).status).toBe('completed');
    await new Promise((resolve) => setImmediate(resolve));
    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.attributes[GEN_AI.operationName] === 'chat');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.attributes['gen_ai.request.stream']).toBe(true);
      expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
    }
    const agent = spans.find((span) => span.attributes[GEN_AI.operationName] === 'invoke_agent');
    expect(agent?.attributes['toolcircuit.run.status']).toBe('completed');
    expect(types.at(-1)).toBe('loop-end');
  });

  it('a provider error fails the chat and agent spans with its code, and is rethrown unchanged', async () => {
    const { exporter, tracer } = tracerSetup();
    const tracing = await createLoopTracing({ tracer });
    const failure = new ProviderError({
      provider: 'scripted',
      code: 'rate_limited',
      message: 'slow down',
      retryable: true,
    });
    const model = createScriptedModel([
      () => {
        throw failure;
      },
    ]);
    await expect(
      tracing.runLoop({ model, catalogue, session: session(), messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBe(failure);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.status.code).toBe(2);
      expect(span.attributes['error.type']).toBe('rate_limited');
      expect(span.attributes['toolcircuit.provider_error.retryable']).toBe(true);
    }
  });

  it('trace records: pause, decision and the call run once after approval, with journal digests', async () => {
    const records: TraceRecord[] = [];
    const tracing = await createLoopTracing({
      spans: false,
      traceFile: (record) => records.push(record),
      label: 'unit',
    });
    const journal = new InMemoryJournal();
    const model = createScriptedModel([
      toolCallsTurn([
        { name: 'lookup', input: { numero: 'A-0001' } },
        { name: 'close', input: { numero: 'A-0001' } },
      ]),
      textTurn('closed'),
    ]);
    const options = { model, catalogue, session: session(), journal, confirmation: 'pause' as const };
    const paused = await tracing.runLoop({ ...options, messages: [{ role: 'user', content: 'close it' }] });
    expect(paused.status).toBe('paused');
    const pending = paused.paused?.pending[0];
    if (paused.paused === undefined || pending === undefined) throw new Error('not paused');
    const done = await tracing.resumeLoop(
      paused.paused,
      [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }],
      options,
    );
    expect(done.status).toBe('completed');
    expect(records.map((record) => record.type)).toEqual([
      'invocation',
      'model-call',
      'call',
      'call',
      'pause',
      'invocation-end',
      'invocation',
      'decision',
      'call',
      'model-call',
      'invocation-end',
    ]);
    const calls = records.filter((record) => record.type === 'call');
    expect(calls.map((call) => [call.tool, call.verdict, call.resumed])).toEqual([
      ['lookup', 'executed', false],
      ['close', 'awaiting_confirmation', false],
      ['close', 'executed', true],
    ]);
    expect(calls.every((call) => call.entryDigest?.length === 64)).toBe(true);
    expect(calls.every((call) => call.input === undefined && call.result === undefined)).toBe(true);
    const decision = records.find((record) => record.type === 'decision');
    expect(decision).toMatchObject({ approved: true, by: 'ana', tool: 'close', inputDigest: pending.inputDigest });
    expect(records[0]).toMatchObject({ type: 'invocation', label: 'unit', kind: 'start', provider: 'scripted' });
    expect(records.at(-1)).toMatchObject({ type: 'invocation-end', status: 'completed', turns: 2 });
  });

  it('trace records say why a call was gated: the untrusted sources and the flagged values (values with content only)', async () => {
    const run = async (captureContent: boolean) => {
      const records: TraceRecord[] = [];
      const tracing = await createLoopTracing({
        spans: false,
        captureContent,
        traceFile: (record) => records.push(record),
      });
      const model = createScriptedModel([
        toolCallsTurn([{ id: 'read', name: 'lookup', input: { numero: 'A-0001' } }]),
        // Copied from the (untrusted) lookup result: the gate flags it.
        toolCallsTurn([{ id: 'shut', name: 'close', input: { numero: 'A-0001' } }]),
        textTurn('closed'),
      ]);
      const options = {
        model,
        catalogue,
        session: session(),
        journal: new InMemoryJournal(),
        confirmation: 'pause' as const,
      };
      const paused = await tracing.runLoop({ ...options, messages: [{ role: 'user', content: 'close A-0001' }] });
      const pending = paused.paused?.pending[0];
      if (paused.paused === undefined || pending?.request === undefined) throw new Error('not gated');
      await tracing.resumeLoop(
        paused.paused,
        [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }],
        options,
      );
      return { records, taintDigest: pending.request.taintDigest };
    };
    const { records, taintDigest } = await run(true);
    const calls = records.filter((record) => record.type === 'call');
    const source = {
      turn: 1,
      callId: 'read',
      toolName: 'lookup',
      outputDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    };
    expect(calls.map((call) => [call.tool, call.verdict, call.outputTrust])).toEqual([
      ['lookup', 'executed', 'untrusted'],
      ['close', 'awaiting_confirmation', 'untrusted'],
      ['close', 'executed', 'untrusted'],
    ]);
    expect(calls[0]?.gate).toBeUndefined();
    const gate = {
      gatedBecause: 'irreversible',
      policy: 'pause',
      taintDigest,
      untrustedSources: [source],
      flaggedArguments: [{ path: '/numero', foundIn: [source], value: 'A-0001' }],
    };
    // Held: from the request the human was shown; run after the approval: from its journal entry and input.
    expect(calls[1]?.gate).toEqual(gate);
    expect(calls[2]?.gate).toEqual(gate);
    expect(records.find((record) => record.type === 'decision')).toMatchObject({
      approved: true,
      informedOf: taintDigest,
    });
    // Without content capture: the same, but no value.
    const bare = (await run(false)).records.filter((record) => record.type === 'call');
    expect(bare[1]?.gate?.flaggedArguments).toEqual([{ path: '/numero', foundIn: [source] }]);
    expect(JSON.stringify(bare)).not.toContain('A-0001');
  });

  it("trace records: a turn's sources (content) and the provider parts it kept (always named)", async () => {
    const turn = {
      content: [
        {
          type: 'text' as const,
          text: 'Open since May.',
          sources: [
            {
              type: 'source' as const,
              sourceType: 'url' as const,
              url: 'https://example.org/case',
              title: 'Case page',
              textRange: { start: 0, end: 4 },
              providerMetadata: { test: { raw: 1 } },
            },
          ],
        },
        { type: 'provider' as const, provider: 'test', kind: 'hologram', data: { type: 'hologram' } },
      ],
      stopReason: { unified: 'end_turn' as const, raw: 'end_turn' },
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    const recordsOf = async (captureContent: boolean) => {
      const records: TraceRecord[] = [];
      const tracing = await createLoopTracing({
        spans: false,
        captureContent,
        traceFile: (record) => records.push(record),
      });
      await tracing.runLoop({
        model: createScriptedModel([turn]),
        catalogue,
        session: session(),
        messages: [{ role: 'user', content: 'x' }],
      });
      return records.find((record) => record.type === 'model-call');
    };
    expect(await recordsOf(true)).toMatchObject({
      text: 'Open since May.',
      sources: [{ sourceType: 'url', url: 'https://example.org/case', title: 'Case page' }],
      providerParts: [{ provider: 'test', kind: 'hologram' }],
    });
    const withoutContent = await recordsOf(false);
    expect(withoutContent).toMatchObject({ providerParts: [{ provider: 'test', kind: 'hologram' }] });
    expect(withoutContent).not.toHaveProperty('sources');
    expect(withoutContent).not.toHaveProperty('text');
  });

  it('without a tracer: the global provider of @opentelemetry/api when one is registered, else nothing recorded', async () => {
    const run = async () => {
      const tracing = await createLoopTracing();
      expect(tracing.enabled).toBe(true);
      const result = await tracing.runLoop({
        model: createScriptedModel([toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0001' } }]), textTurn('ok')]),
        catalogue,
        session: session(),
        messages: [{ role: 'user', content: 'go' }],
      });
      expect(result.status).toBe('completed');
    };
    const exporter = new InMemorySpanExporter();
    // Nothing registered: the API's no-op tracer; the run is unchanged and nothing is exported anywhere.
    await run();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    try {
      await run();
      const names = exporter.getFinishedSpans().map((span) => span.name);
      expect(names.sort()).toEqual([
        'chat scripted-model',
        'chat scripted-model',
        'execute_tool lookup',
        'invoke_agent toolcircuit',
      ]);
      expect(exporter.getFinishedSpans()[0]?.instrumentationScope.name).toBe('@toolcircuit/otel');
    } finally {
      trace.disable();
    }
  });

  it('with nothing to observe, the functions are core’s own', async () => {
    const tracing = await createLoopTracing({ spans: false });
    expect(tracing.enabled).toBe(false);
    expect(tracing.runLoop).toBe(runLoop);
    expect(tracing.resumeLoop).toBe(resumeLoop);
    expect(tracing.streamLoop).toBe(streamLoop);
    expect(tracing.continueLoop).toBe(continueLoop);
  });

  it('a run continued after the provider failed is one more invocation, its turns numbered on', async () => {
    const { exporter, tracer } = tracerSetup();
    const records: TraceRecord[] = [];
    const tracing = await createLoopTracing({ tracer, traceFile: (record) => records.push(record) });
    const overloaded = new ProviderError({ provider: 'scripted', code: 'overloaded', message: '529', retryable: true });
    const journal = new InMemoryJournal();
    const options = { catalogue, session: session(), journal };
    const failed = await tracing
      .runLoop({
        ...options,
        model: createScriptedModel([
          toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0001' } }]),
          () => {
            throw overloaded;
          },
        ]),
        messages: [{ role: 'user', content: 'find it' }],
      })
      .catch((error: unknown) => error);
    const interrupted = interruptedRunOfError(failed);
    if (interrupted === undefined) throw new Error('expected an interrupted run');
    const model = createScriptedModel([
      toolCallsTurn([{ name: 'lookup', input: { numero: 'A-0002' } }]),
      textTurn('ok'),
    ]);
    const result = await tracing.continueLoop(interrupted, { ...options, model });
    expect(result.status).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const agents = spans.filter((span) => span.attributes[GEN_AI.operationName] === 'invoke_agent');
    expect(agents.map((span) => span.attributes['toolcircuit.invocation'])).toEqual(['start', 'continue']);
    expect(agents.map((span) => span.attributes[GEN_AI.conversationId])).toEqual([
      interrupted.runId,
      interrupted.runId,
    ]);
    expect(agents[1]?.attributes['toolcircuit.run.status']).toBe('completed');
    const continuedChats = spans.filter(
      (span) =>
        span.attributes[GEN_AI.operationName] === 'chat' &&
        span.parentSpanContext?.spanId === agents[1]?.spanContext().spanId,
    );
    expect(continuedChats.map((span) => span.attributes['toolcircuit.turn'])).toEqual([2, 3]);
    const tools = spans.filter((span) => span.attributes[GEN_AI.operationName] === 'execute_tool');
    expect(tools.map((span) => span.attributes['toolcircuit.provenance.turn'])).toEqual([1, 2]);
    const invocations = records.filter((record) => record.type === 'invocation');
    expect(invocations.map((record) => record.kind)).toEqual(['start', 'continue']);
  });
});
