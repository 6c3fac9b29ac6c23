import type { JsonObject } from '@toolcircuit/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeSchema, SCHEMA_TARGETS, type SchemaTarget } from '../src/index.js';
import type { CatalogueFile } from '../src/report/build-portability-report.js';
import { compile } from './support/ajv.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { loadExtraCatalogues } from './support/extra-catalogues.js';
import { forcedBranches } from './support/forced-branches.js';
import { isObject } from './support/json-pointer.js';
import { completenessProblem } from './support/round-trip.js';
import { SYNTHETIC_UNION_TOOLS } from './support/synthetic-unions.js';
import { valueArbitrary } from './support/value-arbitrary.js';

/** Candidates per tool, per union branch, and union branches per tool (document order). */
const VALUES_PER_TOOL = 4;
const VALUES_PER_BRANCH = 2;
const BRANCHES_PER_TOOL = 24;
/** A key no corpus schema declares: what a model may add to an object the original leaves open. */
const UNDECLARED = 'x_undeclared_key';

interface CorpusTool {
  readonly where: string;
  readonly schema: JsonObject;
  /** Values valid under the original: generated ones, one per union branch, and the probes below. */
  readonly values: readonly unknown[];
}

const tools: CorpusTool[] = [];

/**
 * Values valid under the original for one tool. Besides generated values (open objects get undeclared keys,
 * optional properties come and go) and values forced into each union branch, two probes aim at what a
 * provider dialect most often loses: the first valid value plus an undeclared key at the root, and the
 * first valid value without any optional root property. Only values the original accepts are kept.
 */
function valuesFor(schema: JsonObject): unknown[] {
  const normalized = normalizeSchema(schema).schema;
  const valid = compile(normalized);
  const candidates: unknown[] = fc.sample(valueArbitrary(normalized, { extraKeys: true, refBudget: 3 }), {
    numRuns: VALUES_PER_TOOL,
    seed: 1414,
  });
  for (const forced of forcedBranches(normalized, BRANCHES_PER_TOOL)) {
    candidates.push(
      ...fc.sample(valueArbitrary(forced.schema, { extraKeys: true, refBudget: 3 }), {
        numRuns: VALUES_PER_BRANCH,
        seed: 1414,
      }),
    );
  }
  // A tool without parameters is called with none, and may be called with undeclared keys.
  candidates.push({});
  // Tool arguments are always an object (the translation declares every root as one).
  const values = candidates.filter((value) => isObject(value) && valid(value));
  const first = values.find(isObject);
  if (first !== undefined) {
    const required = new Set(Array.isArray(normalized.required) ? normalized.required : []);
    const probes = [
      { ...first, [UNDECLARED]: 'extra' },
      Object.fromEntries(Object.entries(first).filter(([key]) => required.has(key))),
    ];
    values.push(...probes.filter((probe) => valid(probe)));
  }
  return values;
}

beforeAll(async () => {
  const files: CatalogueFile[] = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
  for (const file of files) {
    for (const tool of file.tools) {
      tools.push({
        where: `${file.source} ${tool.name}`,
        schema: tool.inputSchema,
        values: valuesFor(tool.inputSchema),
      });
    }
  }
  // Root unions, which no recorded list has (labelled synthetic in their module).
  for (const tool of SYNTHETIC_UNION_TOOLS)
    tools.push({ where: `synthetic ${tool.name}`, schema: tool.schema, values: valuesFor(tool.schema) });
}, 120_000);

/** Per tool, the first value that does not survive: sent as the dialect says, restored equal and valid. */
function problems(
  target: SchemaTarget,
  options: { readonly fallback?: boolean } = {},
  among: readonly CorpusTool[] = tools,
): string[] {
  const found: string[] = [];
  for (const tool of among) {
    for (const value of tool.values) {
      const problem = completenessProblem(tool.schema, value, target, options);
      if (problem !== undefined) {
        found.push(`${tool.where}: ${problem}`);
        break;
      }
    }
  }
  return found;
}

/**
 * Completeness on the whole corpus (issue "every valid call stays possible"): for every tool and target,
 * generated valid inputs — every union branch, undeclared keys where objects are open, optional properties
 * left out — are accepted by the provider-side schema as a model following it sends them, and restore to a
 * value equal to the input (hence valid under the original). Refused tools are named by the typed error.
 */
describe('every valid input of every corpus tool survives provider encoding and restore', () => {
  it('covers every tool with valid values, undeclared keys and omitted optionals included', () => {
    const covered = tools.filter((tool) => tool.values.length > 0);
    expect(tools.length).toBeGreaterThan(2500);
    // `{}` is valid for any tool without required keys; the rest get generated values.
    expect(covered.length / tools.length).toBeGreaterThan(0.97);
    const withUndeclared = tools.filter((tool) => tool.values.some((value) => isObject(value) && UNDECLARED in value));
    console.log(
      `${tools.length} tools, ${covered.length} with valid values (${tools.reduce((sum, tool) => sum + tool.values.length, 0)} values), ${withUndeclared.length} with an undeclared key`,
    );
    expect(withUndeclared.length).toBeGreaterThan(2000);
  });

  it.each(SCHEMA_TARGETS)(
    '%s',
    (target) => {
      expect(problems(target)).toEqual([]);
    },
    120_000,
  );

  it('fails without the per-tool choice of dialect: strict closes open objects, Gemini drops parameters', () => {
    // Every 4th tool is enough to show it (and keeps the suite fast).
    const sample = tools.filter((_, index) => index % 4 === 0);
    const strict = problems('openai-strict', { fallback: false }, sample);
    const gemini = problems('gemini', { fallback: false }, sample);
    expect(strict.length).toBeGreaterThan(sample.length / 2);
    expect(strict.some((problem) => problem.includes(UNDECLARED))).toBe(true);
    expect(gemini.length).toBeGreaterThan(20);
    expect(gemini.some((problem) => problem.includes('gemini cannot carry'))).toBe(true);
  }, 120_000);
});
