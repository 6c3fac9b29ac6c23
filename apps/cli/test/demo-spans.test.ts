import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createModel } from '@toolcircuit/config';
import { createLoopTracing, entryDigestOf } from '@toolcircuit/otel';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BACKENDS, demoCassettesDirectory } from '../src/demo/demo-backends.js';
import { type DemoScenarioOutcome, runDemoScenario } from '../src/demo/run-demo-scenario.js';
import type { TraceWriter } from '../src/trace/trace-writer.js';

const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

const quiet: TraceWriter = { textDelta() {}, event() {}, summary() {}, note() {} };
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The demo's run on Anthropic (its synthetic cassette, through the official SDK over a replay server),
 * traced into the SDK's in-memory exporter: the span tree is checked attribute by attribute against the
 * GenAI conventions and toolcircuit's own attributes, and against the run's journal.
 */
describe('spans of the demo run', () => {
  const exporter = new InMemorySpanExporter();
  let spans: ReadableSpan[] = [];
  let outcome: DemoScenarioOutcome;

  beforeAll(async () => {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = await createLoopTracing({ tracer: provider.getTracer('demo-test') });
    const backend = DEMO_BACKENDS[0];
    if (backend === undefined) throw new Error('no demo backend');
    const cassette = loadCassette(backend.cassette, { directory: demoCassettesDirectory() });
    const server = await startReplayServer(cassette);
    try {
      const model = await createModel(backend.config(server.url, cassette.model ?? 'demo-model'), {
        env: { ANTHROPIC_API_KEY: 'toolcircuit-demo-offline' },
      });
      outcome = await runDemoScenario(model, quiet, undefined, tracing);
    } finally {
      await server.close();
    }
    await provider.forceFlush();
    spans = exporter.getFinishedSpans();
  });
  afterAll(() => exporter.reset());

  const byOperation = (operation: string) =>
    spans.filter((span) => span.attributes['gen_ai.operation.name'] === operation);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('one invoke_agent span per invocation (the run, then its resume after approval), each a root', () => {
    expect(outcome.missing).toEqual([]);
    const agents = byOperation('invoke_agent');
    expect(agents).toHaveLength(2);
    const [start, resume] = agents;
    const runId = outcome.journal[0]?.runId;
    expect(typeof runId).toBe('string');
    for (const agent of agents) {
      expect(agent.name).toBe('invoke_agent toolcircuit');
      expect(agent.kind).toBe(SPAN_KIND_INTERNAL);
      expect(parentOf(agent)).toBeUndefined();
      expect(agent.attributes['gen_ai.provider.name']).toBe('anthropic');
      expect(agent.attributes['gen_ai.agent.name']).toBe('toolcircuit');
      expect(agent.attributes['gen_ai.request.model']).toBe('claude-haiku-5-5');
      expect(agent.attributes['gen_ai.conversation.id']).toBe(runId);
      expect(agent.attributes['toolcircuit.run.id']).toBe(runId);
      expect(agent.attributes['toolcircuit.session.id']).toBe('demo-session');
      expect(agent.status.code).toBe(STATUS_UNSET);
      // Content capture is off by default: no messages, no system text.
      expect(agent.attributes['gen_ai.output.messages']).toBeUndefined();
      expect(agent.attributes['gen_ai.system_instructions']).toBeUndefined();
    }
    expect(start?.attributes['toolcircuit.invocation']).toBe('start');
    expect(start?.attributes['toolcircuit.run.status']).toBe('paused');
    expect(resume?.attributes['toolcircuit.invocation']).toBe('resume');
    expect(resume?.attributes['toolcircuit.run.status']).toBe('completed');
    expect(resume?.attributes['toolcircuit.turns']).toBe(3);

    const paused = start?.events.find((event) => event.name === 'toolcircuit.paused');
    expect(paused?.attributes?.['toolcircuit.paused.tool_names']).toEqual(['cloturer_dossier']);
    const decision = resume?.events.find((event) => event.name === 'toolcircuit.decision');
    expect(decision?.attributes?.['gen_ai.tool.name']).toBe('cloturer_dossier');
    expect(decision?.attributes?.['toolcircuit.decision.approved']).toBe(true);
    const digests = paused?.attributes?.['toolcircuit.paused.digests'] as string[] | undefined;
    expect(digests?.[0]).toMatch(HEX64);
    expect(decision?.attributes?.['toolcircuit.confirmation.digest']).toBe(digests?.[0]);
  });

  it('one chat span per model call, under the invocation that made it, with the response and its usage', () => {
    const [start, resume] = byOperation('invoke_agent');
    const chats = byOperation('chat');
    expect(chats.map((chat) => chat.attributes['toolcircuit.turn'])).toEqual([1, 2, 3]);
    expect(chats.map((chat) => parentOf(chat))).toEqual([
      start?.spanContext().spanId,
      start?.spanContext().spanId,
      resume?.spanContext().spanId,
    ]);
    expect(chats.map((chat) => chat.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool_use'],
      ['tool_use'],
      ['end_turn'],
    ]);
    expect(chats.map((chat) => chat.attributes['toolcircuit.stop_reason'])).toEqual([
      'tool_calls',
      'tool_calls',
      'end_turn',
    ]);
    const turns = outcome.summary.turns;
    expect(turns).toBe(3);
    let input = 0;
    let output = 0;
    for (const chat of chats) {
      expect(chat.name).toBe('chat claude-haiku-5-5');
      expect(chat.kind).toBe(SPAN_KIND_CLIENT);
      expect(chat.status.code).toBe(STATUS_UNSET);
      expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
      expect(chat.attributes['gen_ai.provider.name']).toBe('anthropic');
      expect(chat.attributes['gen_ai.request.model']).toBe('claude-haiku-5-5');
      expect(typeof chat.attributes['gen_ai.response.model']).toBe('string');
      expect(chat.attributes['gen_ai.response.id']).toMatch(/^msg_/);
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
      expect(chat.attributes['gen_ai.output.messages']).toBeUndefined();
      input += Number(chat.attributes['gen_ai.usage.input_tokens']);
      output += Number(chat.attributes['gen_ai.usage.output_tokens']);
    }
    expect([input, output]).toEqual([outcome.summary.tokens.input, outcome.summary.tokens.output]);
  });

  it('one execute_tool span per attempt: the lookup, the schema refusal, the missing right, the pause, the run after approval', () => {
    const [start, resume] = byOperation('invoke_agent');
    const tools = byOperation('execute_tool');
    const summary = tools.map((span) => [
      span.attributes['toolcircuit.turn'],
      span.attributes['gen_ai.tool.name'],
      span.attributes['toolcircuit.verdict'],
      span.attributes['toolcircuit.reason'] ?? null,
      span.attributes['toolcircuit.right'],
      span.attributes['toolcircuit.resumed'],
      parentOf(span) === start?.spanContext().spanId
        ? 'start'
        : parentOf(span) === resume?.spanContext().spanId
          ? 'resume'
          : '?',
    ]);
    expect(summary).toEqual([
      [1, 'chercher_dossier', 'executed', null, 'dossiers:read', false, 'start'],
      [1, 'chercher_dossier', 'refused', 'invalid_input', 'dossiers:read', false, 'start'],
      [2, 'supprimer_dossier', 'refused', 'missing_right', 'dossiers:delete', false, 'start'],
      [2, 'cloturer_dossier', 'awaiting_confirmation', null, 'dossiers:close', false, 'start'],
      [2, 'cloturer_dossier', 'executed', null, 'dossiers:close', true, 'resume'],
    ]);
    const journal = outcome.journal;
    expect(journal).toHaveLength(tools.length);
    tools.forEach((span, index) => {
      const entry = journal[index];
      if (entry === undefined) throw new Error('missing journal entry');
      const { attributes } = span;
      expect(span.name).toBe(`execute_tool ${entry.toolName}`);
      expect(span.kind).toBe(SPAN_KIND_INTERNAL);
      expect(attributes['gen_ai.operation.name']).toBe('execute_tool');
      expect(attributes['gen_ai.tool.type']).toBe('function');
      expect(attributes['gen_ai.tool.call.id']).toBe(entry.callId);
      expect(attributes['gen_ai.tool.description']).toEqual(expect.any(String));
      expect(attributes['toolcircuit.input.digest']).toBe(entry.inputDigest);
      expect(attributes['toolcircuit.output.digest']).toBe(entry.outputDigest);
      // The span and the journal entry can be cross-checked.
      expect(attributes['toolcircuit.journal.entry_digest']).toMatch(HEX64);
      expect(attributes['toolcircuit.journal.entry_digest']).toBe(entryDigestOf(entry));
      expect(attributes['toolcircuit.provenance.response_id']).toMatch(/^msg_/);
      expect(attributes['toolcircuit.retries']).toBe(0);
      // Content capture is off: no arguments, no result, no refusal text.
      expect(attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(attributes['gen_ai.tool.call.result']).toBeUndefined();
      expect(attributes['toolcircuit.reason.message']).toBeUndefined();
      expect(span.endTime[0] * 1e9 + span.endTime[1]).toBeGreaterThanOrEqual(
        span.startTime[0] * 1e9 + span.startTime[1],
      );
    });
    const [lookup, schema, right, pause, approved] = tools;
    expect(lookup?.status.code).toBe(STATUS_UNSET);
    expect(lookup?.attributes['error.type']).toBeUndefined();
    expect(lookup?.attributes['toolcircuit.irreversible']).toBe(false);
    expect(lookup?.attributes['toolcircuit.confirmation.digest']).toBeUndefined();
    expect(schema?.status).toEqual({ code: STATUS_ERROR, message: 'invalid_input' });
    expect(schema?.attributes['error.type']).toBe('invalid_input');
    expect(right?.status).toEqual({ code: STATUS_ERROR, message: 'missing_right' });
    expect(right?.attributes['error.type']).toBe('missing_right');
    expect(right?.attributes['toolcircuit.irreversible']).toBe(true);
    expect(pause?.status.code).toBe(STATUS_UNSET);
    expect(pause?.attributes['toolcircuit.irreversible']).toBe(true);
    expect(pause?.attributes['toolcircuit.confirmation.digest']).toBe(journal[3]?.inputDigest);
    expect(pause?.attributes['gen_ai.tool.call.id']).toBe(approved?.attributes['gen_ai.tool.call.id']);
    expect(approved?.status.code).toBe(STATUS_UNSET);
    expect(approved?.attributes['toolcircuit.confirmation.digest']).toBe(
      pause?.attributes['toolcircuit.confirmation.digest'],
    );
  });

  it('writes nothing else: five tool spans, three chat spans, two agent spans', () => {
    expect(spans).toHaveLength(10);
    const ids = new Set(spans.map((span) => span.spanContext().traceId));
    // The resume is its own trace (it may run days later, in another process); the run id joins them.
    expect(ids.size).toBe(2);
  });
});

/** The conventions' provider name for each demo backend: Gemini's API is `gcp.gemini`. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  anthropic: 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'gemini-genai': 'gcp.gemini',
  'gemini-generative-ai': 'gcp.gemini',
};

describe.each(DEMO_BACKENDS.map((backend) => [backend.id, backend] as const))(
  'spans of the demo run on %s: the same tree on every adapter',
  (id, backend) => {
    it('two invocations, three chat spans, five tool spans with the same verdicts, provider and usage set', async () => {
      const exporter = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const tracing = await createLoopTracing({ tracer: provider.getTracer('demo-test') });
      const cassette = loadCassette(backend.cassette, { directory: demoCassettesDirectory() });
      const server = await startReplayServer(cassette);
      let outcome: DemoScenarioOutcome;
      try {
        const model = await createModel(backend.config(server.url, cassette.model ?? 'demo-model'), {
          env: { ANTHROPIC_API_KEY: 'offline', OPENAI_API_KEY: 'offline', GEMINI_API_KEY: 'offline' },
        });
        outcome = await runDemoScenario(model, quiet, undefined, tracing);
      } finally {
        await server.close();
      }
      expect(outcome.missing).toEqual([]);
      const spans = exporter.getFinishedSpans();
      const of = (operation: string) => spans.filter((span) => span.attributes['gen_ai.operation.name'] === operation);
      expect([of('invoke_agent').length, of('chat').length, of('execute_tool').length]).toEqual([2, 3, 5]);
      for (const span of [...of('invoke_agent'), ...of('chat')]) {
        expect(span.attributes['gen_ai.provider.name']).toBe(PROVIDER_NAMES[id]);
        expect(span.attributes['gen_ai.request.model']).toBe(cassette.model ?? 'demo-model');
      }
      for (const chat of of('chat')) {
        expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
        expect((chat.attributes['gen_ai.response.finish_reasons'] as string[]).length).toBe(1);
      }
      expect(
        of('execute_tool').map((span) => [
          span.attributes['gen_ai.tool.name'],
          span.attributes['toolcircuit.verdict'],
          span.attributes['toolcircuit.reason'] ?? null,
          span.attributes['toolcircuit.journal.entry_digest'],
        ]),
      ).toEqual(
        outcome.journal.map((entry) => [entry.toolName, entry.verdict, entry.reason ?? null, entryDigestOf(entry)]),
      );
      expect(of('execute_tool').map((span) => span.attributes['toolcircuit.verdict'])).toEqual([
        'executed',
        'refused',
        'refused',
        'awaiting_confirmation',
        'executed',
      ]);
    });
  },
);
