import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Draft } from '../../src/catalogue/load-ajv.js';
import { checkMetaSchema } from '../../src/catalogue/meta-schema-check.js';
import { createCatalogue, defineTool, everySession, type JsonObject, SchemaCompileError } from '../../src/index.js';

/**
 * Registration checks a schema against its draft's meta-schema with code ajv generated ahead of time
 * (src/catalogue/meta-schema-sources.generated.ts). These tests hold that code to the ajv core depends on:
 * the file is what the generator writes today, and its verdicts and texts are ajv's own.
 */

const GENERATOR = fileURLToPath(new URL('../../scripts/generate-meta-schema-sources.mjs', import.meta.url));

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => unknown;

/** The catalogue's options (validate-input.ts). */
const OPTIONS: Options = { strict: false, allErrors: true, verbose: true, logger: false };

const DRAFTS: Readonly<Record<Draft, { create: () => Ajv | Ajv2019 | Ajv2020; ids: readonly string[] }>> = {
  'draft-07': {
    create: () => new Ajv(OPTIONS),
    ids: ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema'],
  },
  '2019-09': {
    create: () => new Ajv2019(OPTIONS),
    ids: ['https://json-schema.org/draft/2019-09/schema', 'https://json-schema.org/draft/2019-09/schema#'],
  },
  '2020-12': {
    create: () => new Ajv2020(OPTIONS),
    ids: ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'],
  },
};

const instances = new Map<Draft, Ajv | Ajv2019 | Ajv2020>();

/** ajv's own verdict, as its `compile` reaches it (`validateSchema`, then `errorsText`). */
function ajvVerdict(draft: Draft, schema: object): string {
  let ajv = instances.get(draft);
  if (ajv === undefined) {
    ajv = DRAFTS[draft].create();
    addFormats(ajv as Ajv);
    instances.set(draft, ajv);
  }
  return ajv.validateSchema(schema) ? 'valid' : `schema is invalid: ${ajv.errorsText()}`;
}

/** Valid schemas, and every kind of meta-schema breakage, several at once in some. */
const SCHEMAS: readonly Record<string, unknown>[] = [
  { type: 'object' },
  { type: 'object', properties: { a: { type: ['string', 'null'], enum: ['x', null] } }, required: ['a'] },
  { type: 'object', properties: { a: { type: 'string', minLength: -1, maxLength: 1.5 } } },
  { type: 'object', properties: { a: { type: 'strings' } } },
  { type: 'object', properties: { a: { type: ['string', 'string'] } } },
  { type: 'object', properties: { a: { enum: [] } } },
  { type: 'object', properties: { a: { enum: [{ k: [1, 2] }, { k: [1, 2] }] } } },
  { type: 'object', properties: { a: { enum: [{ k: [1, 2] }, { k: [2, 1] }] } } },
  { type: 'object', required: [1, 'a', 'a'] },
  { type: 'object', properties: { a: { items: [] } } },
  { type: 'object', properties: { a: { items: 5, minItems: 'one' } } },
  { type: 'object', properties: { a: { allOf: [], anyOf: [{}], oneOf: 3 } } },
  { type: 'object', properties: { a: { pattern: 7, format: 7 } } },
  { type: 'object', properties: { a: { $ref: 5, $comment: 5, title: 5, description: 5 } } },
  { type: 'object', properties: { a: { prefixItems: {}, dependentRequired: { a: [1] } } } },
  { type: 'object', properties: { a: { $defs: 5, definitions: 5, dependencies: { a: 5 } } } },
  { type: 'object', properties: { a: JSON.parse('{"if": 5, "then": 5, "else": 5, "not": 5, "contains": 5}') } },
  { type: 'object', properties: { a: { unevaluatedProperties: 5, $anchor: '1 bad', $dynamicRef: 5 } } },
  { type: 'object', additionalProperties: 'no', patternProperties: { x: 5 }, propertyNames: 5 },
  { type: 'object', properties: { a: { multipleOf: 0, minimum: 'three', exclusiveMinimum: true } } },
];

describe('the meta-schema check generated from ajv', () => {
  it('is what the generator writes from the ajv core depends on', () => {
    const result = spawnSync(process.execPath, [GENERATOR, '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it("answers every draft's schemas exactly as ajv's own meta-schema check, with its text", () => {
    let refused = 0;
    for (const [draft, { ids }] of Object.entries(DRAFTS) as [Draft, (typeof DRAFTS)[Draft]][]) {
      for (const id of draft === 'draft-07' ? [undefined, ...ids] : ids) {
        for (const schema of SCHEMAS) {
          const declared = id === undefined ? schema : { $schema: id, ...schema };
          const expected = ajvVerdict(draft, declared);
          expect(checkMetaSchema(draft, declared), `${draft} ${JSON.stringify(declared)}`).toBe(expected);
          if (expected !== 'valid') refused += 1;
        }
      }
    }
    // Most of the list is broken: the comparison is not between two acceptances.
    expect(refused).toBeGreaterThan(SCHEMAS.length * 5);
  });

  it('leaves to ajv a `$schema` it does not stand for', () => {
    expect(checkMetaSchema('draft-07', { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' })).toBe(
      'unknown',
    );
    expect(
      checkMetaSchema('2020-12', { $schema: 'https://json-schema.org/draft/2020-12/meta/applicator', type: 'object' }),
    ).toBe('unknown');
  });
});

describe('registration after the meta-schema check', () => {
  it("refuses a keyword whose type only ajv checks (the meta-schema leaves it), with ajv's message", () => {
    const schemas: Record<string, unknown>[] = [
      { type: 'object', properties: { day: { type: 'string', format: 'date', formatMaximum: 5 } } },
      { type: 'object', properties: { a: { anyOf: [{ type: 'string', nullable: 'yes' }] } } },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'integer', formatMinimum: [] } } } },
    ];
    for (const [index, schema] of schemas.entries()) {
      const ajv = DRAFTS['draft-07'].create();
      addFormats(ajv as Ajv);
      let expected = '';
      try {
        ajv.compile(schema);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(expected, JSON.stringify(schema)).not.toBe('');
      const name = `unchecked_${index}`;
      const tool = defineTool({
        name,
        description: 'd',
        inputSchema: schema as JsonObject,
        right: everySession,
        run: () => 1,
      });
      expect(() => createCatalogue([tool]), name).toThrow(SchemaCompileError);
      expect(() => createCatalogue([tool]), name).toThrow(expected);
    }
  });
});
