import type { BenchResults } from '../../src/report/bench-results.js';

/** A run's figures for a goal row to judge: every phase empty but those given. */
export function resultsOf(figures: Pick<BenchResults, 'options'> & Partial<BenchResults>): BenchResults {
  return {
    cells: [],
    paths: [],
    rss: [],
    rssGoal: [],
    imports: [],
    translation: [],
    wire: undefined,
    durable: undefined,
    corpusCatalogue: undefined,
    coldImports: undefined,
    ...figures,
  };
}
