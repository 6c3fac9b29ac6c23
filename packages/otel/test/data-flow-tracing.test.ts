import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createCatalogue, createSession, defineTool, everySession, InMemoryJournal } from '@toolcircuit/core';
import { createLoopTracing, TOOLCIRCUIT, TOOLCIRCUIT_EVENT, type TraceRecord } from '@toolcircuit/otel';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

const open = { type: 'object', additionalProperties: true } as const;
const catalogue = createCatalogue([
  defineTool({
    name: 'read_mail',
    description: 'Reads mail.',
    inputSchema: open,
    right: everySession,
    run: () => ({ iban: 'GB33BUKB20201555555555' }),
  }),
  defineTool({
    name: 'send_money',
    description: 'Sends money.',
    inputSchema: open,
    right: everySession,
    irreversible: true,
    trustedOnly: ['/iban'],
    run: () => 'sent',
  }),
]);

describe('data flow in traces', () => {
  it('says which option held a call, the paths to vouch for, what the human vouched for and where values came from', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const records: TraceRecord[] = [];
    const tracing = await createLoopTracing({
      tracer: provider.getTracer('test'),
      traceFile: (record) => records.push(record),
    });
    const options = {
      model: createScriptedModel([
        toolCallsTurn([{ name: 'read_mail', input: {} }]),
        toolCallsTurn([{ name: 'send_money', input: { iban: 'GB33BUKB20201555555555', amount: 5 } }]),
        textTurn('sent'),
      ]),
      catalogue,
      session: createSession({ id: 's', humanId: 'ana' }),
      journal: new InMemoryJournal(),
      confirmation: 'pause' as const,
    };
    const paused = await tracing.runLoop({
      ...options,
      messages: [{ role: 'user', content: 'Pay what the mail says.' }],
    });
    const pending = paused.paused?.pending[0];
    if (paused.paused === undefined || pending === undefined) throw new Error('not paused');
    expect(pending.dataFlow?.vouchFor).toEqual(['/iban']);
    const done = await tracing.resumeLoop(
      paused.paused,
      [{ callId: pending.callId, approved: true, vouched: [{ path: '/iban', value: 'GB33 BUKB 2020 1555 5555 55' }] }],
      options,
    );
    expect(done.status).toBe('completed');

    const tools = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool send_money');
    expect(tools.map((span) => span.attributes[TOOLCIRCUIT.dataFlowRefusedBy])).toEqual(['trusted-only', undefined]);
    expect(tools[0]?.attributes[TOOLCIRCUIT.dataFlowVouchFor]).toEqual(['/iban']);
    expect(tools[0]?.attributes[TOOLCIRCUIT.dataFlowOrigins]).toEqual(['/iban=untrusted']);
    expect(tools[1]?.attributes[TOOLCIRCUIT.dataFlowOrigins]).toEqual(['/iban=vouched:ana']);
    const decision = exporter
      .getFinishedSpans()
      .flatMap((span) => span.events)
      .find((event) => event.name === TOOLCIRCUIT_EVENT.decision);
    expect(decision?.attributes?.[TOOLCIRCUIT.decisionVouched]).toEqual(['/iban']);

    const pause = records.find((record) => record.type === 'pause');
    expect(pause?.type === 'pause' ? pause.pending[0]?.dataFlow : undefined).toMatchObject({
      refusedBy: 'trusted-only',
      vouchFor: ['/iban'],
      checked: [{ path: '/iban' }],
    });
    const vouched = records.find((record) => record.type === 'decision');
    expect(vouched).toMatchObject({ type: 'decision', approved: true, vouched: ['/iban'], by: 'ana' });
    // Without content capture, the value the human typed is not in the trace file.
    expect(JSON.stringify(records)).not.toContain('GB33 BUKB');
    const calls = records.filter((record) => record.type === 'call' && record.tool === 'send_money');
    expect(calls.map((call) => (call.type === 'call' ? call.dataFlow?.checked : undefined))).toEqual([
      [{ path: '/iban' }],
      [{ path: '/iban', trustedIn: { kind: 'vouched', by: 'ana', callId: pending.callId, path: '/iban' } }],
    ]);
  });
});
