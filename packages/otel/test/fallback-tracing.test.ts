import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createCatalogue, createSession, ProviderError } from '@toolcircuit/core';
import { createLoopTracing, TOOLCIRCUIT } from '@toolcircuit/otel';
import { createScriptedModel, textTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

describe('a run on a fallback list in traces', () => {
  it('each chat span names the model that answered its turn, and the one that failed it first', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = await createLoopTracing({ tracer: provider.getTracer('test') });
    const overloaded = (): never => {
      throw new ProviderError({
        provider: 'anthropic',
        code: 'overloaded',
        message: 'Overloaded',
        status: 529,
        retryable: true,
      });
    };
    const result = await tracing.runLoop({
      model: [
        createScriptedModel([overloaded], { provider: 'anthropic', modelId: 'claude-test' }),
        createScriptedModel([textTurn('answered by the secondary')], { provider: 'google', modelId: 'gemini-test' }),
      ],
      catalogue: createCatalogue([]),
      session: createSession({ id: 's', humanId: 'ana' }),
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result.status).toBe('completed');
    const chat = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat'));
    expect(chat.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.provider.name': 'gcp.gemini',
        'gen_ai.request.model': 'gemini-test',
        [TOOLCIRCUIT.fallbackMember]: 1,
        [TOOLCIRCUIT.fallbackFrom]: ['anthropic:claude-test overloaded 529'],
      }),
    ]);
  });
});
