import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createCatalogue, createSession, type ModelPrice, ProviderError } from '@toolcircuit/core';
import { createLoopTracing, TOOLCIRCUIT } from '@toolcircuit/otel';
import { createScriptedModel, textTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

describe('a run on a fallback list in traces', () => {
  it('each chat span names the model that answered its turn, and the one that failed it first', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = await createLoopTracing({ tracer: provider.getTracer('test') });
    const result = await tracing.runLoop({
      model: [
        createScriptedModel([overloadedTurn], { provider: 'anthropic', modelId: 'claude-test' }),
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
        // No price for the secondary: the cost is unknown and says why, never zero.
        [TOOLCIRCUIT.costUnknown]: 'no price for google:gemini-test',
      }),
    ]);
    expect(chat[0]?.attributes[TOOLCIRCUIT.costUsd]).toBeUndefined();
  });

  it('each chat span carries its turn’s cost beside the GenAI usage, at the model that answered it', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = await createLoopTracing({ tracer: provider.getTracer('test') });
    const priced = (inputTokens: number, outputTokens: number) => ({
      ...textTurn('answered'),
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    });
    const prices: ModelPrice[] = [
      {
        provider: 'google',
        model: 'gemini-test',
        inputPerMTok: 2,
        outputPerMTok: 10,
        source: 'https://example.test/contract (synthetic row for the test)',
        asOf: '2026-12-01',
      },
    ];
    const result = await tracing.runLoop({
      model: [
        createScriptedModel([overloadedTurn], { provider: 'anthropic', modelId: 'claude-test' }),
        createScriptedModel([priced(1_000_000, 100_000)], { provider: 'google', modelId: 'gemini-test' }),
      ],
      catalogue: createCatalogue([]),
      session: createSession({ id: 's', humanId: 'ana' }),
      messages: [{ role: 'user', content: 'hi' }],
      prices,
    });
    const chat = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat'));
    expect(chat.map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'gen_ai.usage.input_tokens': 1_000_000, [TOOLCIRCUIT.costUsd]: 3 }),
    ]);
    expect(result.cost.total).toEqual({ usd: 3 });
    expect(chat[0]?.attributes[TOOLCIRCUIT.costUnknown]).toBeUndefined();
  });
});

function overloadedTurn(): never {
  throw new ProviderError({
    provider: 'anthropic',
    code: 'overloaded',
    message: 'Overloaded',
    status: 529,
    retryable: true,
  });
}
