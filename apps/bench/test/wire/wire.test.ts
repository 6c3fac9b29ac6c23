import { describe, expect, it } from 'vitest';
import { formatWire } from '../../src/report/format-wire.js';
import { createInstantFetch } from '../../src/wire/instant-fetch.js';
import { measureStepCosts } from '../../src/wire/measure-step-costs.js';
import { type AdapterWireCost, slopeUsPerKb } from '../../src/wire/measure-wire-cost.js';
import { BODY_HANDLING, WIRE_ADAPTERS } from '../../src/wire/wire-adapters.js';

describe('the cost per extra KB of a server run', () => {
  it('is the least-squares slope of step cost against body size over every step', () => {
    // 2 µs per KB on top of 1 ms a step, with one disturbed step in the middle that a two-ends difference
    // would not see and a fit weighs as one point of many.
    const sizes = Array.from({ length: 40 }, (_, step) => 1024 * (1 + step * 10));
    const gaps = sizes.map((bytes, step) => 1 + (2 * bytes) / 1024 / 1000 + (step === 20 ? 0.5 : 0));
    expect(slopeUsPerKb(gaps, sizes)).toBeCloseTo(2, 0);
    expect(slopeUsPerKb(gaps.slice(0, 1), sizes.slice(0, 1))).toBe(0);
    expect(slopeUsPerKb([1, 1, 1], [5, 5, 5])).toBe(0); // no growth in size: no slope
  });
});

// Structure only: which rows exist, what they sent, what the report says of each. No timing is asserted.
describe('the wire phase without a socket', () => {
  it('answers at once, counting the body as the UTF-8 bytes a real fetch would send', async () => {
    const instant = createInstantFetch('look_up_orders', 2);
    const response = await instant.fetch('http://instant.invalid/v1/responses', { method: 'POST', body: '{"é":1}' });
    const answer = (await response.json()) as { output: { type: string }[] };
    expect(answer.output.map((item) => item.type)).toEqual(['function_call', 'function_call']);
    expect(instant.lastBodyBytes()).toBe(8); // 7 characters, é is 2 bytes
    expect((await instant.fetch('http://instant.invalid/v1/other', { method: 'POST' })).status).toBe(404);
    expect(instant.answered()).toBe(1);
  });

  it('times one new step per sample through every model, with the reference and adapter-only rows', async () => {
    const globalFetch = globalThis.fetch;
    const rows = await measureStepCosts(2, [1, 3], { minSamples: 2, maxSamples: 2, budgetMs: 0 });
    // The Google rows swap the global fetch for the instant one; it must be back afterwards.
    expect(globalThis.fetch).toBe(globalFetch);

    const labels = [
      'reference: JSON.stringify of the whole anthropic body',
      'floor: UTF-8 encoding of that body text',
      'anthropic: buildAnthropicRequest + anthropicRequestBodyText',
      ...WIRE_ADAPTERS.flatMap((adapter) =>
        adapter.protocol === 'google'
          ? ['google: convertToGoogleMessages (namingKey), no SDK', `${adapter.label} model.generate`]
          : [`${adapter.label} model.generate`],
      ),
    ];
    expect(rows.map((row) => `${row.historySteps} ${row.row}`)).toEqual([
      ...labels.map((label) => `1 ${label}`),
      ...labels.map((label) => `3 ${label}`),
    ]);
    for (const row of rows) {
      expect(row.samples).toBe(2);
      expect(row.us).toBeGreaterThan(0);
    }
    for (const label of labels) {
      const [short, long] = rows.filter((row) => row.row === label);
      expect(long?.bodyBytes).toBeGreaterThan(short?.bodyBytes ?? Number.POSITIVE_INFINITY);
    }
    const models = rows.filter((row) => row.kind === 'model' && row.historySteps === 1);
    expect(models.map((row) => row.body)).toEqual(['text-reused', 'text-reused', 'text-reused', 'text-completed']);

    // The Anthropic model sends exactly the text anthropicRequestBodyText makes, the body the reference serialises.
    for (const steps of [1, 3]) {
      const anthropic = rows.filter((row) => row.historySteps === steps && row.row.startsWith('anthropic'));
      const reference = rows.find((row) => row.historySteps === steps && row.kind === 'reference');
      const floor = rows.find((row) => row.historySteps === steps && row.kind === 'floor');
      expect(anthropic).toHaveLength(2);
      expect(floor?.bodyBytes).toBe(reference?.bodyBytes);
      for (const row of anthropic) expect(row.bodyBytes).toBe(reference?.bodyBytes);
    }

    const report = formatWire({ adapters: WIRE_ADAPTERS.map(serverRun), steps: rows });
    const stepLines = report.split('\n').filter((line) => line.startsWith('- ') && line.includes('1 → 3 steps'));
    expect(stepLines).toHaveLength(labels.length - 2);
    for (const adapter of WIRE_ADAPTERS) {
      const said = report.split('\n').filter((line) => line.startsWith(`- ${adapter.label}`));
      // One line for the server run, one for the model row; each states how this adapter makes its body.
      expect(said).toHaveLength(2);
      for (const line of said) expect(line).toContain(BODY_HANDLING[adapter.body]);
    }
    expect(report).not.toContain('rebuilds and re-serialises the whole history');
  });
});

// A server-run row of the shape measureWireCost gives (that phase needs the built instant server process).
function serverRun(adapter: (typeof WIRE_ADAPTERS)[number], index: number): AdapterWireCost {
  return {
    adapter: adapter.label,
    body: adapter.body,
    steps: 300,
    calls: 8,
    first10Us: 1000,
    last10Us: 1000 * (1 + index),
    firstBodyBytes: 1024,
    lastBodyBytes: 1024 * 1000,
    usPerKb: index,
    roundUsPerKb: [index],
  };
}
