// A bounded version of the bench's held-out tool-search measure, as a regression guard: five held-out sets
// (requests nobody here tuned on) at 600 tools, through the product's own path (createCatalogue with every
// tool deferred and the lint/convert normalisation, then the catalogue's search). The floors sit a few
// points under the measured figures (BENCHMARKS.md); the sets must also beat the name-match baseline.
import { describe, expect, it } from 'vitest';
import { measureHeldOutRecall } from '../../src/search/measure-held-out-recall.js';
import { searchSets } from '../../src/search/search-sets.js';
import { sizedSet } from '../../src/search/sized-catalogue.js';

const FLOORS: Record<string, number> = {
  'StableToolBench · one tool (G1 instruction)': 0.82,
  "API-Bank · the user's words before each call": 0.68,
  'API-Bank · keywords a model wrote (ToolSearcher calls)': 0.85,
  "LiveMCPBench · a model's own search queries (claude-sonnet-4)": 0.44,
  'MCP-Bench · indirect task, one query per clause': 0.6,
};

describe('tool search on held-out sets (quick check)', () => {
  const sets = searchSets();

  it('keeps tuning and test sets apart, and tests on sources other than BFCL', () => {
    const tuning = sets.filter((set) => set.split === 'tuning');
    const test = sets.filter((set) => set.split === 'test');
    expect([...new Set(tuning.map((set) => set.source))].sort()).toEqual(['BFCL', 'StableToolBench']);
    expect([...new Set(test.map((set) => set.source))].sort()).toEqual([
      'API-Bank',
      'LiveMCPBench',
      'MCP-Bench',
      'StableToolBench',
    ]);
    const tuningIds = new Set(tuning.flatMap((set) => set.questions.map((question) => question.id)));
    const shared = test.flatMap((set) => set.questions.filter((question) => tuningIds.has(question.id)));
    expect(shared).toEqual([]);
  });

  it('finds the held-out ground truth above the floors, and better than matching names', () => {
    const chosen = sets.filter((set) => set.label in FLOORS);
    expect(chosen).toHaveLength(Object.keys(FLOORS).length);
    const rows = measureHeldOutRecall({ sizes: [600], sets: chosen });
    for (const row of rows) {
      expect(row.split).toBe('test');
      expect(row.questions).toBeGreaterThan(30);
      expect(row.recall[5], row.label).toBeGreaterThan(FLOORS[row.label] ?? 1);
      // Claude's queries on LiveMCPBench spell the tool out ("tool: generate word cloud chart"), where matching
      // names alone does as well (BENCHMARKS.md); every other set must beat it.
      if (!row.label.startsWith('LiveMCPBench')) expect(row.recall[5], row.label).toBeGreaterThan(row.nameMatchRecall5);
      // Restricting the search to the ground truth's namespace never loses what the open search found.
      if (row.scopedRecall5 !== undefined)
        expect(row.scopedRecall5, row.label).toBeGreaterThanOrEqual(row.recall[5] - 0.02);
    }
  }, 120_000);

  it('serves BFCL’s dict tools through the product path', () => {
    const bfcl = sets.find((set) => set.label === 'BFCL · single-turn');
    if (bfcl === undefined) throw new Error('no BFCL set');
    const sized = sizedSet(bfcl, 100);
    expect(sized.refusedGroundTruth).toBe(0);
    expect(sized.tools).toHaveLength(100);
    expect(sized.catalogue.get('calculate_triangle_area')?.declaration.inputSchema.type).toBe('object');
  });
});
