import type { JsonObject } from '@toolcircuit/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeSchema, SCHEMA_TARGETS, type SchemaTarget, type TranslateOptions } from '../src/index.js';
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
  /** Values valid under the original, with undeclared keys wherever an object does not refuse them. */
  readonly values: readonly unknown[];
  /**
   * Values of the declared inputs only: undeclared keys only where the schema declares them
   * (`additionalProperties: true` or a schema, `patternProperties`), not where it omits `additionalProperties`.
   */
  readonly declared: readonly unknown[];
}

const tools: CorpusTool[] = [];

/**
 * Values valid under the original for one tool. Besides generated values (objects get extra keys as `extraKeys`
 * says, optional properties come and go) and values forced into each union branch, three probes aim at what a
 * provider dialect most often loses: the first valid value plus an undeclared key at the root, the first valid
 * value without any optional root property, and the first valid value with every optional root property that
 * accepts null set to an explicit null. Only values the original accepts are kept.
 */
function valuesFor(schema: JsonObject, extraKeys: 'all' | 'declared'): unknown[] {
  const normalized = normalizeSchema(schema).schema;
  const valid = compile(normalized);
  const candidates: unknown[] = fc.sample(valueArbitrary(normalized, { extraKeys, refBudget: 3 }), {
    numRuns: VALUES_PER_TOOL,
    seed: 1414,
  });
  for (const forced of forcedBranches(normalized, BRANCHES_PER_TOOL)) {
    candidates.push(
      ...fc.sample(valueArbitrary(forced.schema, { extraKeys, refBudget: 3 }), {
        numRuns: VALUES_PER_BRANCH,
        seed: 1414,
      }),
    );
  }
  // A tool without parameters is called with none.
  candidates.push({});
  // Tool arguments are always an object (the translation declares every root as one).
  const values = candidates.filter((value) => isObject(value) && valid(value));
  const first = values.find(isObject);
  if (first !== undefined) {
    const required = new Set(Array.isArray(normalized.required) ? normalized.required : []);
    const properties = isObject(normalized.properties) ? Object.keys(normalized.properties) : [];
    const explicitNulls = Object.fromEntries(
      properties.filter((name) => !required.has(name)).map((name) => [name, null]),
    );
    const probes = [
      // Where undeclared keys are declared inputs only, the root must declare them (else `valid` refuses it).
      ...(extraKeys === 'all' || declaresOpenKeys(normalized) ? [{ ...first, [UNDECLARED]: 'extra' }] : []),
      Object.fromEntries(Object.entries(first).filter(([key]) => required.has(key))),
      { ...first, ...explicitNulls },
    ];
    values.push(...probes.filter((probe) => valid(probe)));
  }
  return values;
}

/** Whether the root declares keys beyond its properties (a root union: whether any variant does). */
function declaresOpenKeys(root: JsonObject): boolean {
  const union = Array.isArray(root.anyOf) ? root.anyOf : Array.isArray(root.oneOf) ? root.oneOf : [];
  return [root, ...union.filter(isObject)].some(
    (node) =>
      node.patternProperties !== undefined ||
      (node.additionalProperties !== undefined && node.additionalProperties !== false),
  );
}

beforeAll(async () => {
  const files: CatalogueFile[] = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
  const add = (where: string, schema: JsonObject): void => {
    tools.push({ where, schema, values: valuesFor(schema, 'all'), declared: valuesFor(schema, 'declared') });
  };
  for (const file of files) for (const tool of file.tools) add(`${file.source} ${tool.name}`, tool.inputSchema);
  // Root unions, which no recorded list has (labelled synthetic in their module).
  for (const tool of SYNTHETIC_UNION_TOOLS) add(`synthetic ${tool.name}`, tool.schema);
}, 240_000);

/** Per tool, the first value that does not survive: sent as the dialect says, restored equal and valid. */
function problems(
  target: SchemaTarget,
  options: TranslateOptions = {},
  among: readonly CorpusTool[] = tools,
  which: 'values' | 'declared' = 'values',
): string[] {
  const found: string[] = [];
  for (const tool of among) {
    for (const value of tool[which]) {
      const problem = completenessProblem(tool.schema, value, target, options);
      if (problem !== undefined) {
        found.push(`${tool.where}: ${problem}`);
        break;
      }
    }
  }
  return found;
}

/** Targets that close objects or omit parameters by default: they carry the DECLARED inputs (see README). */
const CLOSING: ReadonlySet<SchemaTarget> = new Set(['openai-strict', 'gemini']);

/**
 * Completeness on the whole corpus (issue "every valid call stays possible"): for every tool and target,
 * generated valid inputs — every union branch, undeclared keys where objects are open, optional properties
 * left out or set to an explicit null — are accepted by the provider-side schema as a model following it sends
 * them, and restore to a value equal to the input (hence valid under the original). Refused tools are named by
 * the typed error. `openai-strict` and `gemini` close objects that merely omit `additionalProperties` (keys
 * nobody declared are no input): by default they must carry every DECLARED input, and with
 * `keepUndeclaredKeys` every input, undeclared keys included.
 */
describe('every valid input of every corpus tool survives provider encoding and restore', () => {
  it('covers every tool with valid values, undeclared keys and omitted optionals included', () => {
    const covered = tools.filter((tool) => tool.values.length > 0 && tool.declared.length > 0);
    expect(tools.length).toBeGreaterThan(2500);
    // `{}` is valid for any tool without required keys; the rest get generated values.
    expect(covered.length / tools.length).toBeGreaterThan(0.97);
    const withUndeclared = tools.filter((tool) => tool.values.some((value) => isObject(value) && UNDECLARED in value));
    const withExplicitNull = tools.filter((tool) =>
      tool.declared.some((value) => isObject(value) && Object.values(value).includes(null)),
    );
    console.log(
      `${tools.length} tools, ${covered.length} with valid values (${tools.reduce((sum, tool) => sum + tool.values.length + tool.declared.length, 0)} values), ${withUndeclared.length} with an undeclared key, ${withExplicitNull.length} with an explicit null`,
    );
    expect(withUndeclared.length).toBeGreaterThan(2000);
    expect(withExplicitNull.length).toBeGreaterThan(100);
  });

  it.each(SCHEMA_TARGETS)(
    '%s: every declared input',
    (target) => {
      expect(problems(target, {}, tools, CLOSING.has(target) ? 'declared' : 'values')).toEqual([]);
    },
    240_000,
  );

  it.each([...CLOSING])(
    '%s with keepUndeclaredKeys: every input, undeclared keys included',
    (target) => {
      expect(problems(target, { keepUndeclaredKeys: true })).toEqual([]);
    },
    240_000,
  );

  it('fails without the per-tool choice of dialect, and where undeclared keys are inputs the default drops them', () => {
    // Every 4th tool is enough to show it (and keeps the suite fast).
    const sample = tools.filter((_, index) => index % 4 === 0);
    const undeclared = { fallback: false, keepUndeclaredKeys: true } as const;
    const strict = problems('openai-strict', undeclared, sample);
    const gemini = problems('gemini', undeclared, sample);
    expect(strict.length).toBeGreaterThan(sample.length / 2);
    expect(strict.some((problem) => problem.includes('openai-strict cannot carry'))).toBe(true);
    expect(gemini.length).toBeGreaterThan(20);
    expect(gemini.some((problem) => problem.includes('gemini cannot carry'))).toBe(true);
    // The strict dialect alone still loses declared inputs (explicit nulls, declared open keys): the test sees it.
    const declared = problems('openai-strict', { fallback: false }, tools, 'declared');
    expect(declared.some((problem) => /issue_write: .*"type":null/.test(problem))).toBe(true);
    expect(declared.some((problem) => problem.startsWith('mcp_notion.json API-post-page'))).toBe(true);
    // By default, undeclared keys of objects that omit additionalProperties do not travel: they are no input.
    expect(problems('openai-strict', {}, sample).length).toBeGreaterThan(sample.length / 2);
  }, 240_000);
});
