import type { JsonObject } from '@toolcircuit/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeSchema, SCHEMA_TARGETS } from '../src/index.js';
import type { CatalogueFile } from '../src/report/build-portability-report.js';
import { compile } from './support/ajv.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { checkRoundTrip } from './support/round-trip.js';
import { toolSchemaArbitrary } from './support/schema-arbitrary.js';
import { valueArbitrary } from './support/value-arbitrary.js';

function validUnder(original: JsonObject): (value: unknown) => boolean {
  return compile(normalizeSchema(original).schema);
}

/** Generated tool schemas, each with one generated value the original accepts (undeclared keys as `extraKeys`). */
function schemasWithValues(extraKeys: 'all' | 'declared' | 'none'): fc.Arbitrary<[JsonObject, unknown]> {
  return toolSchemaArbitrary.chain((schema) =>
    fc.tuple(fc.constant(schema), valueArbitrary(normalizeSchema(schema).schema, { extraKeys, refBudget: 5 })),
  );
}

describe('generated schemas and values', () => {
  // openai-strict too: a tool strict mode would narrow goes with strict: false (per-tool dialect).
  it.each([
    ['every value of the declared inputs', 'declared', {}],
    ['with keepUndeclaredKeys, every valid value (undeclared keys included)', 'all', { keepUndeclaredKeys: true }],
  ] as const)(
    'every target accepts and restores %s',
    (_, extraKeys, options) => {
      fc.assert(
        fc.property(schemasWithValues(extraKeys), ([schema, value]) => {
          fc.pre(validUnder(schema)(value));
          for (const target of SCHEMA_TARGETS) checkRoundTrip(schema, value, target, options);
        }),
        { numRuns: 120 },
      );
    },
    120_000,
  );

  it('openai-strict accepts every valid value without undeclared keys, nulls for omitted optionals, and restores it', () => {
    fc.assert(
      fc.property(schemasWithValues('none'), ([schema, value]) => {
        fc.pre(validUnder(schema)(value));
        checkRoundTrip(schema, value, 'openai-strict');
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});

describe('real catalogue schemas with generated values', () => {
  const sample: { source: string; name: string; schema: JsonObject }[] = [];

  beforeAll(async () => {
    const files: CatalogueFile[] = await loadAllCatalogues();
    // Every tool using a union, a reference, a tuple, a const, a type list or BFCL's `any` (what the
    // translators reshape most), plus every 10th tool of each file: about 430 of the 2,402.
    const interesting = /"(\$ref|anyOf|oneOf|allOf|prefixItems|const)"|"type":\[|"type":"any"/;
    for (const file of files) {
      file.tools.forEach((tool, index) => {
        if (index % 10 === 0 || interesting.test(JSON.stringify(tool.inputSchema))) {
          sample.push({ source: file.source, name: tool.name, schema: tool.inputSchema });
        }
      });
    }
  });

  it('samples tools from every catalogue file', () => {
    expect(new Set(sample.map((tool) => tool.source)).size).toBe(11);
    expect(sample.length).toBeGreaterThan(400);
  });

  it.each(SCHEMA_TARGETS)(
    '%s accepts and restores values valid under each sampled tool',
    (target) => {
      // openai-strict and gemini close objects that omit additionalProperties: only declared keys are inputs.
      const closing = target === 'openai-strict' || target === 'gemini';
      let checked = 0;
      for (const tool of sample) {
        const normalized = normalizeSchema(tool.schema).schema;
        const valid = compile(normalized);
        const noParameters = Object.keys((normalized.properties as JsonObject | undefined) ?? {}).length === 0;
        // A tool without parameters is called with no arguments.
        const values = noParameters
          ? fc.constant({})
          : valueArbitrary(normalized, { extraKeys: closing ? 'declared' : 'all', refBudget: 4 });
        fc.assert(
          fc.property(values, (value) => {
            fc.pre(valid(value));
            checked += 1;
            checkRoundTrip(tool.schema, value, target);
          }),
          { numRuns: 5, seed: 4242 },
        );
      }
      expect(checked).toBeGreaterThan(sample.length);
    },
    120_000,
  );
});
