// The neutral tool search over the whole corpus (every tool of fixtures/catalogues as one catalogue), asked
// every BFCL question of fixtures/bfcl: recall of the ground-truth tool, computed here, against floors a
// broken index (no stemming, no name splitting, wrong ranking, nothing found) falls under, and against the
// name-match baseline measured in the same run.
import { describe, expect, it } from 'vitest';
import { measureSearchRecall, type RecallRow } from '../../src/search/measure-search-recall.js';

describe('tool search recall on the BFCL questions', () => {
  const report = measureSearchRecall();
  const row = (method: RecallRow['method'], questions: string) =>
    report.rows.find((candidate) => candidate.method === method && candidate.questions === questions) as RecallRow;

  it('searches the whole corpus with every question', () => {
    expect(report.tools).toBeGreaterThan(2_300);
    expect(report.singleTurnQuestions).toBeGreaterThan(800);
    expect(report.multiTurnTurns).toBeGreaterThan(700);
  });

  it('finds the ground-truth tool of single-turn questions above the floors', () => {
    const search = row('tool search (BM25F)', 'single-turn');
    expect(search.recall[1]).toBeGreaterThan(0.6);
    expect(search.recall[5]).toBeGreaterThan(0.8);
    expect(search.recall[10]).toBeGreaterThan(0.85);
    expect(row('tool search (BM25F)', 'all').recall[10]).toBeGreaterThan(0.7);
  });

  it('beats matching the question against tool names at every depth', () => {
    for (const questions of ['single-turn', 'multi-turn', 'all']) {
      const search = row('tool search (BM25F)', questions);
      const names = row('name match', questions);
      for (const k of [1, 5, 10] as const) expect(search.recall[k]).toBeGreaterThan(names.recall[k]);
    }
  });
});
