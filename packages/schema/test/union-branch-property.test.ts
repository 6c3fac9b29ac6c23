import type { JsonObject } from '@toolcircuit/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeSchema, SCHEMA_TARGETS, type SchemaChange } from '../src/index.js';
import type { CatalogueFile } from '../src/report/build-portability-report.js';
import { compile } from './support/ajv.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { loadExtraCatalogues } from './support/extra-catalogues.js';
import { forcedBranches } from './support/forced-branches.js';
import { checkRoundTrip } from './support/round-trip.js';
import { SYNTHETIC_UNION_TOOLS } from './support/synthetic-unions.js';
import { valueArbitrary } from './support/value-arbitrary.js';

/** Branches tried per tool (document order) and candidate values generated per branch. */
const BRANCHES_PER_TOOL = 40;
const VALUES_PER_BRANCH = 4;

interface UnionTool {
  readonly source: string;
  readonly name: string;
  readonly schema: JsonObject;
}

let tools: UnionTool[] = [];

beforeAll(async () => {
  const files: CatalogueFile[] = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
  for (const file of files) {
    for (const tool of file.tools) {
      if (/"(anyOf|oneOf)"/.test(JSON.stringify(tool.inputSchema)))
        tools.push({ source: file.source, name: tool.name, schema: tool.inputSchema });
    }
  }
  tools = tools.sort((a, b) => `${a.source} ${a.name}`.localeCompare(`${b.source} ${b.name}`));
  // Root unions, which no recorded list has (labelled synthetic in their module).
  for (const tool of SYNTHETIC_UNION_TOOLS) tools.push({ source: 'synthetic', ...tool });
});

/**
 * Completeness, shown on the corpus: for every tool with a union and every target, values generated for
 * EACH union branch (the union forced to that branch), kept when the original accepts them, are accepted
 * by the provider-side schema as a model following it would send them, and restore to a value the original
 * accepts, on every target (a restored value the original refuses would also have to be a named narrowing).
 */
describe('every union branch of the corpus survives provider encoding and restore', () => {
  it('covers the unions of both corpora', () => {
    expect(new Set(tools.map((tool) => tool.source.startsWith('extra/'))).size).toBe(2);
    expect(tools.filter((tool) => tool.source === 'synthetic')).toHaveLength(3);
    expect(tools.length).toBeGreaterThan(100);
  });

  it.each(SCHEMA_TARGETS)(
    '%s',
    (target) => {
      let branches = 0;
      let exercised = 0;
      let values = 0;
      const impossible: string[] = [];
      const unnamed: string[] = [];
      for (const tool of tools) {
        const normalized = normalizeSchema(tool.schema).schema;
        const valid = compile(normalized);
        for (const forced of forcedBranches(normalized, BRANCHES_PER_TOOL)) {
          branches += 1;
          const candidates = fc.sample(valueArbitrary(forced.schema, { extraKeys: 'none', refBudget: 3 }), {
            numRuns: VALUES_PER_BRANCH,
            seed: 1414,
          });
          let hit = false;
          for (const value of candidates) {
            if (!valid(value)) continue;
            hit = true;
            values += 1;
            const outcome = checkRoundTrip(tool.schema, value, target);
            if (outcome === undefined || valid(outcome.restored)) continue;
            const where = `${tool.source} ${tool.name} ${forced.branch}`;
            impossible.push(where);
            if (!outcome.translated.some((change: SchemaChange) => change.narrows !== undefined)) unnamed.push(where);
          }
          if (hit) exercised += 1;
        }
      }
      console.log(
        `${target}: ${tools.length} tools, ${branches} union branches, ${exercised} exercised with ${values} valid values; restored invalid: ${impossible.length} (unnamed: ${unnamed.length})`,
      );
      expect(unnamed).toEqual([]);
      // With the per-tool dialect, no valid value of any branch is lost on any target.
      expect(impossible).toEqual([]);
      expect(exercised / branches).toBeGreaterThan(0.6);
    },
    300_000,
  );
});
