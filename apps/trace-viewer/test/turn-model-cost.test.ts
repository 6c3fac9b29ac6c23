// Each turn of the page names the model that answered it (a fallback list's member, not the list) and what
// the turn cost, from a trace written by a real run on a fallback list.
import { createCatalogue, createSession, type ModelPrice, ProviderError } from '@toolcircuit/core';
import { createLoopTracing, type TraceRecord, traceRecordLine } from '@toolcircuit/otel';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { layoutTurns } from '../src/model/layout.js';
import { parseTraceText } from '../src/model/parse-trace-text.js';
import { renderTurn } from '../src/page/render-turn.js';

const overloaded = (): never => {
  throw new ProviderError({ provider: 'anthropic', code: 'overloaded', message: '529', status: 529, retryable: true });
};
const withUsage = <T extends { usage: unknown }>(turn: T, inputTokens: number, outputTokens: number): T => ({
  ...turn,
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

describe('the trace viewer: each turn’s model and cost', () => {
  it('shows the primary on turn 1, the fallback member on turn 2, each with its cost or "cost unknown"', async () => {
    const records: TraceRecord[] = [];
    const tracing = await createLoopTracing({ traceFile: (record) => records.push(record) });
    // Turn 1: the primary (priced by the shipped table) asks for a tool the catalogue lacks; turn 2 it is
    // overloaded and the secondary (priced by the run's own row) answers.
    const prices: ModelPrice[] = [
      {
        provider: 'google',
        model: 'gemini-test',
        inputPerMTok: 2,
        outputPerMTok: 10,
        source: 'synthetic row of the test',
        asOf: '2026-12-03',
      },
    ];
    await tracing.runLoop({
      model: [
        createScriptedModel(
          [withUsage(toolCallsTurn([{ id: 'c1', name: 'missing', input: {} }]), 100_000, 1_000), overloaded],
          { provider: 'anthropic', modelId: 'claude-sonnet-4-6' },
        ),
        createScriptedModel([withUsage(textTurn('done'), 1_000_000, 100_000)], {
          provider: 'google',
          modelId: 'gemini-test',
        }),
      ],
      catalogue: createCatalogue([]),
      session: createSession({ id: 's', humanId: 'ana' }),
      messages: [{ role: 'user', content: 'hi' }],
      prices,
    });
    const [run] = parseTraceText(records.map(traceRecordLine).join('')).runs;
    expect(run).toBeDefined();
    const { boxes } = layoutTurns(run?.turns ?? [], () => true, true);
    const [first, second] = boxes.map((box) => renderTurn(box, undefined));
    expect(first).toContain('model · anthropic:claude-sonnet-4-6<');
    // 100,000 × $3 + 1,000 × $15 per million.
    expect(first).toContain('$0.315000');
    expect(second).toContain('model · google:gemini-test (fallback #1)');
    expect(second).toContain('$3.000000');

    // Without the run's row the secondary's turn is "cost unknown", never a zero.
    const unpriced = records.map((record) =>
      record.type === 'model-call' && record.turn === 2
        ? { ...record, cost: { usd: 'unknown' as const, why: 'no price for google:gemini-test' } }
        : record,
    );
    const [again] = parseTraceText(unpriced.map(traceRecordLine).join('')).runs;
    const last = layoutTurns(again?.turns ?? [], () => true, true).boxes.at(-1);
    expect(last === undefined ? '' : renderTurn(last, undefined)).toContain('cost unknown');
  });
});
