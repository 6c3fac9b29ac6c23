import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type AnyToolDefinition, createCatalogue, createSession, InMemoryJournal } from '@toolcircuit/core';
import { createLoopTracing } from '@toolcircuit/otel';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

// A tool reached over a wire protocol says so on its definition (as @toolcircuit/mcp's imported tools do):
// the call's span names the protocol, the negotiated revision, this side's role and the peer.
const remote: AnyToolDefinition = {
  name: 'sent_count',
  description: 'How many reports were sent.',
  inputSchema: { type: 'object', properties: {} },
  right: 'mcp:reports',
  irreversible: false,
  protocol: { name: 'mcp', revision: '2026-07-28', role: 'client', peer: 'reports' },
  run: () => '0',
};
const local: AnyToolDefinition = {
  name: 'note',
  description: 'Keep a note.',
  inputSchema: { type: 'object', properties: {} },
  right: 'mcp:reports',
  irreversible: false,
  run: () => 'kept',
};

describe('the wire protocol of a call', () => {
  it('is on the execute_tool span and in the journal entry; a local tool has none', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = await createLoopTracing({ tracer: provider.getTracer('test') });
    const journal = new InMemoryJournal();
    await tracing.runLoop({
      model: createScriptedModel([
        toolCallsTurn([
          { name: 'sent_count', input: {} },
          { name: 'note', input: {} },
        ]),
        textTurn('done'),
      ]),
      catalogue: createCatalogue([remote, local]),
      session: createSession({ id: 's', humanId: 'ana', rights: ['mcp:reports'] }),
      journal,
      messages: [{ role: 'user', content: 'How many?' }],
    });
    const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
    const attributes = (name: string) => spans.find((span) => span.name === `execute_tool ${name}`)?.attributes;
    expect(attributes('sent_count')).toMatchObject({
      'toolcircuit.protocol.name': 'mcp',
      'toolcircuit.protocol.revision': '2026-07-28',
      'toolcircuit.protocol.role': 'client',
      'toolcircuit.protocol.peer': 'reports',
    });
    expect(attributes('note')?.['toolcircuit.protocol.revision']).toBeUndefined();
    expect(journal.entries.map((entry) => entry.protocol?.revision ?? null)).toEqual(['2026-07-28', null]);
  });
});
