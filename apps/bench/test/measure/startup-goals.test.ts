import { describe, expect, it } from 'vitest';
import type { ColdImports } from '../../src/measure/measure-adapter-imports.js';
import type { CorpusCatalogueCost } from '../../src/measure/measure-corpus-catalogue.js';
import { judgeStartupGoals } from '../../src/report/startup-goals.js';
import { loadCorpusTools } from '../../src/scenario/corpus-tools.js';
import type { WireCostReport } from '../../src/wire/measure-wire-cost.js';

/** Structure and verdict logic only, on made-up figures: no timing is asserted. */
describe('startup goals', () => {
  it('reads the whole corpus of the repository', () => {
    const tools = loadCorpusTools();
    expect(tools.length).toBeGreaterThan(2_000);
    expect(tools.every((tool) => tool.inputSchema !== undefined)).toBe(true);
  });

  it('says "not measured" for a phase left out, and judges each row on its limit', () => {
    expect(judgeStartupGoals(undefined, undefined, undefined).map((row) => row.pass)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const catalogue: CorpusCatalogueCost = {
      samples: 3,
      tools: 2_510,
      loaded: 1_690,
      refused: 820,
      coldMs: 400,
      coldCpuMs: 240,
      warmMs: 100,
      warmCpuMs: 90,
      rssGrowthMb: 120,
      peakRssMb: 200,
      peer: undefined,
    };
    const imports: ColdImports = {
      core: { specifier: '@toolcircuit/core', importMs: 60, importCpuMs: 40, cpuSamples: [40, 38, 45], samples: 3 },
      pairs: [
        {
          pair: { adapter: '@toolcircuit/openai', sdk: 'openai', folder: 'packages/openai' },
          adapter: {
            specifier: '@toolcircuit/openai',
            importMs: 150,
            importCpuMs: 130,
            cpuSamples: [130, 125, 140],
            samples: 3,
          },
          sdk: { specifier: 'openai', importMs: 120, importCpuMs: 100, cpuSamples: [100, 110, 95], samples: 3 },
        },
        {
          // Judged round by round: +10, +10, +80 (the medians alone, 160 against 120, would read +40).
          pair: { adapter: '@toolcircuit/google', sdk: '@google/genai', folder: 'packages/google' },
          adapter: {
            specifier: '@toolcircuit/google',
            importMs: 160,
            importCpuMs: 160,
            cpuSamples: [130, 160, 170],
            samples: 3,
          },
          sdk: { specifier: '@google/genai', importMs: 120, importCpuMs: 120, cpuSamples: [120, 150, 90], samples: 3 },
        },
      ],
    };
    const adapter = (label: string, usPerKb: number) => ({
      adapter: label,
      body: 'text-reused' as const,
      steps: 300,
      calls: 8,
      first10Us: 1,
      last10Us: 2,
      firstBodyBytes: 1,
      lastBodyBytes: 2,
      usPerKb,
      roundUsPerKb: [usPerKb],
    });
    const wire: WireCostReport = {
      adapters: [adapter('anthropic (@anthropic-ai/sdk)', 4), adapter('google (@google/genai)', 5.9)],
      steps: [],
    };
    const [catalogueRow, coreRow, adapterRow, geminiRow] = judgeStartupGoals(catalogue, imports, wire);
    expect(catalogueRow?.pass).toBe(false); // 240 ms CPU is within 250, but 120 MB is over 100
    expect(coreRow?.pass).toBe(true);
    expect(adapterRow?.pass).toBe(false); // openai: +30 ms over the SDK (rounds: +30, +15, +45)
    expect(adapterRow?.measured).toContain('openai +30.0 ms CPU');
    expect(adapterRow?.measured).toContain('google +10.0 ms CPU');
    expect(adapterRow?.measured).toContain('median of 3 paired rounds');
    expect(geminiRow?.pass).toBe(true); // 5.9 / 4 = 1.475
    expect(geminiRow?.measured).toContain('1.48×');
  });
});
