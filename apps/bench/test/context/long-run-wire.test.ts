// The context policy's budget on every adapter through its official SDK, over the replay server (synthetic
// responses): 200 turns each answered with a 20 KB page stay under 100,000 tokens per request, as the replay
// server counts them (o200k_base over the body it received) and reports them in the answer's usage; the run
// keeps every page whole.
import { describe, expect, it } from 'vitest';
import { archivePage, LONG_RUN_RESULT_CHARS } from '../../src/context/long-run-pages.js';
import { LONG_RUN_BUDGET, LONG_RUN_TURNS, playLongRun } from '../../src/context/play-long-run.js';
import { SDK_BACKENDS } from '../../src/wire/sdk-backends.js';

describe.each(SDK_BACKENDS)('$label: a 200-turn run with 20 KB results', (backend) => {
  it('keeps every request under a 100,000-token budget; the run and the journal keep every page', async () => {
    const run = await playLongRun(backend);
    expect(run.result.status).toBe('completed');
    expect(run.requestTokens).toHaveLength(LONG_RUN_TURNS + 1);
    expect(Math.max(...run.requestTokens)).toBeLessThanOrEqual(LONG_RUN_BUDGET);
    // Without the policy the history would hold 200 pages: far past the budget.
    expect(run.reports.at(-1)?.fullTokens).toBeGreaterThan(10 * LONG_RUN_BUDGET);
    expect(run.reports.every((report) => !report.overBudget)).toBe(true);
    const pages = run.result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(pages).toHaveLength(LONG_RUN_TURNS);
    expect(pages.at(0)?.content).toBe(archivePage(1));
    expect(pages.at(-1)?.content).toBe(archivePage(LONG_RUN_TURNS));
    expect(archivePage(1)).toHaveLength(LONG_RUN_RESULT_CHARS);
    expect(run.journal.filter((entry) => entry.verdict === 'executed')).toHaveLength(LONG_RUN_TURNS);
  }, 300_000);
});
