import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { callBudget, createCatalogue, createSession, defineTool, everySession } from '@toolcircuit/core';
import { createLoopTracing, GEN_AI, type TraceRecord } from '@toolcircuit/otel';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

const tool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    right: everySession,
    run: () => 'ok',
  });
const catalogue = createCatalogue([tool('lookup'), tool('summarise')]);
const session = createSession({ id: 's-1', humanId: 'ana', rights: [] });

describe('per-step control in the trace', () => {
  it('each chat span names its step model, tools and tool choice; a stopped run names its condition', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const records: TraceRecord[] = [];
    const tracing = await createLoopTracing({ tracer, traceFile: (record) => records.push(record) });
    const first = createScriptedModel([toolCallsTurn([{ name: 'lookup', input: {} }])], { modelId: 'first' });
    const second = createScriptedModel([toolCallsTurn([{ name: 'lookup', input: {} }]), textTurn('never asked')], {
      modelId: 'second',
    });
    const result = await tracing.runLoop({
      model: first,
      catalogue,
      session,
      messages: [{ role: 'user', content: 'go' }],
      stopWhen: callBudget(2),
      prepareStep: ({ turn }) =>
        turn === 1
          ? { activeTools: ['lookup'], toolChoice: { type: 'tool', name: 'lookup' } }
          : { model: second, activeTools: ['summarise'], toolChoice: 'required' },
    });
    expect(result.status).toBe('stopped');
    const spans = exporter.getFinishedSpans();
    const chats = spans
      .filter((span) => span.attributes[GEN_AI.operationName] === 'chat')
      .sort((a, b) => Number(a.attributes['toolcircuit.turn']) - Number(b.attributes['toolcircuit.turn']));
    expect(
      chats.map((span) => [
        span.attributes['toolcircuit.turn'],
        span.attributes[GEN_AI.requestModel],
        span.attributes['toolcircuit.request.tools'],
        span.attributes['toolcircuit.request.tool_choice'],
      ]),
    ).toEqual([
      [1, 'first', ['lookup'], 'tool:lookup'],
      [2, 'second', ['summarise'], 'required'],
    ]);
    const tools = spans.filter((span) => span.attributes[GEN_AI.operationName] === 'execute_tool');
    expect(tools.map((span) => span.attributes['toolcircuit.reason'])).toEqual([undefined, 'inactive_tool']);
    const agent = spans.find((span) => span.attributes[GEN_AI.operationName] === 'invoke_agent');
    expect(agent?.attributes['toolcircuit.run.status']).toBe('stopped');
    expect(agent?.attributes['toolcircuit.run.stopped_by']).toBe('callBudget(2)');
    const calls = records.filter((record) => record.type === 'model-call');
    expect(calls.map((record) => (record.type === 'model-call' ? [record.requestModel, record.tools] : []))).toEqual([
      ['first', ['lookup']],
      ['second', ['summarise']],
    ]);
    expect(records.at(-1)).toMatchObject({ type: 'invocation-end', status: 'stopped', stoppedBy: 'callBudget(2)' });
  });
});
