import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  type AnyToolDefinition,
  createCatalogue,
  defineTool,
  everySession,
  type JsonObject,
  SchemaCompileError,
} from '../../src/index.js';

/**
 * Registration checks a schema without compiling it (the compile happens on the tool's first call). These
 * tests hold that shortcut to what compiling at registration did: for every schema of the repository's
 * corpus, and for breakages planted in them, `createCatalogue` refuses exactly the schemas ajv refuses,
 * with ajv's own message, and every schema it accepts then compiles on first use.
 */

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => unknown;

const OPTIONS: Options = { strict: false, allErrors: true, verbose: true, logger: false };

function newAjv(declared: unknown): Ajv | Ajv2019 | Ajv2020 {
  const ajv =
    typeof declared === 'string' && declared.includes('2020-12')
      ? new Ajv2020(OPTIONS)
      : typeof declared === 'string' && declared.includes('2019-09')
        ? new Ajv2019(OPTIONS)
        : new Ajv(OPTIONS);
  addFormats(ajv as Ajv);
  return ajv;
}

const shared = new Map<unknown, Ajv | Ajv2019 | Ajv2020>();

/**
 * What createCatalogue did before: compile at once, on the catalogue's instance for the draft (no `$schema`:
 * draft-07). An instance is shared between schemas without any `$id` (nothing of theirs stays in it that
 * another could meet); one with an `$id` gets a fresh one, as in a one-tool catalogue.
 */
function referenceVerdict(toolName: string, schema: JsonObject): string {
  const declared = schema.$schema;
  let ajv = shared.get(declared);
  if (JSON.stringify(schema).includes('"$id"')) ajv = newAjv(declared);
  if (ajv === undefined) {
    ajv = newAjv(declared);
    shared.set(declared, ajv);
  }
  try {
    ajv.compile(schema);
    return 'compiles';
  } catch (error) {
    return new SchemaCompileError(toolName, error instanceof Error ? error.message : String(error)).message;
  }
}

function tool(name: string, inputSchema: JsonObject): AnyToolDefinition {
  return defineTool({ name, description: `tool ${name}`, inputSchema, right: everySession, run: () => 'ok' });
}

/** createCatalogue's verdict on one schema, and, when it accepts it, proof that the schema compiles on first use. */
async function catalogueVerdict(toolName: string, schema: JsonObject): Promise<string> {
  const catalogue = createCatalogue([tool(toolName, schema)], { mode: 'lenient' });
  const refusal = catalogue.refused[0];
  if (refusal !== undefined) return refusal.error.message;
  const checked = await catalogue.validate(toolName, { probe: 1 });
  if (!checked.ok && checked.message.includes('cannot check its arguments')) return checked.message;
  return 'compiles';
}

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CORPUS_DIRS = ['fixtures/catalogues/', 'packages/schema/test/fixtures/corpus-extra/'];

/** Every object-rooted input schema of the repository's tool corpus (the shapes of its files: see their SOURCES.md). */
function corpusSchemas(): JsonObject[] {
  const schemas: JsonObject[] = [];
  for (const dir of CORPUS_DIRS) {
    for (const file of readdirSync(ROOT + dir).filter((name) => name.endsWith('.json'))) {
      const data: unknown = JSON.parse(readFileSync(ROOT + dir + file, 'utf8'));
      const tools = Array.isArray(data) ? data : (data as { tools?: unknown }).tools;
      if (!Array.isArray(tools)) continue;
      for (const entry of tools as Record<string, unknown>[]) {
        const schema = entry.input_schema ?? entry.inputSchema ?? entry.parameters;
        if (schema !== null && typeof schema === 'object' && (schema as JsonObject).type === 'object') {
          schemas.push(schema as JsonObject);
        }
      }
    }
  }
  return schemas;
}

/** Ways real schemas break, each planted at one subschema position. */
const BREAKAGES: readonly JsonObject[] = [
  { enum: [] },
  { pattern: '([a-z' },
  { minimum: 'three' },
  { nullable: true },
  { type: 'string', nullable: 'yes' },
  { type: ['string', 'null'], nullable: false },
  { id: 'legacy-id' },
  { $ref: '#/$defs/missing' },
  { $ref: '#/properties' },
  { $ref: 'https://example.invalid/schema.json' },
  { type: 'dict' },
  { allOf: [] },
  { required: [1] },
  { items: [] },
  { patternProperties: { '([': { type: 'string' } } },
  { format: 7 },
  { $async: true },
  { $id: 'https://example.invalid/a' },
];

/** Subschema positions of a schema (its root, properties' schemas, items), as paths of keys. */
function positions(schema: JsonObject, path: string[] = [], out: string[][] = []): string[][] {
  out.push(path);
  const properties = schema.properties;
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
        positions(child as JsonObject, [...path, 'properties', name], out);
      }
    }
  }
  const items = schema.items;
  if (items !== null && typeof items === 'object' && !Array.isArray(items)) {
    positions(items as JsonObject, [...path, 'items'], out);
  }
  return out;
}

function planted(schema: JsonObject, path: readonly string[], breakage: JsonObject): JsonObject {
  const copy = structuredClone(schema);
  let target = copy as Record<string, unknown>;
  for (const key of path) target = target[key] as Record<string, unknown>;
  Object.assign(target, breakage);
  return copy;
}

describe('createCatalogue compiles each schema on first use', () => {
  const corpus = corpusSchemas();

  it('refuses exactly what compiling refused, with the same message, on the whole corpus', async () => {
    expect(corpus.length).toBeGreaterThan(1500);
    let compiled = 0;
    for (const [index, schema] of corpus.entries()) {
      const name = `corpus_${index}`;
      const expected = referenceVerdict(name, schema);
      expect(await catalogueVerdict(name, schema), name).toBe(expected);
      if (expected === 'compiles') compiled += 1;
    }
    // The corpus is mostly valid: the comparison is not between two refusals.
    expect(compiled).toBeGreaterThan(corpus.length * 0.9);
  }, 600_000);

  it('refuses a breakage planted anywhere in a real schema, as compiling did', async () => {
    // Every 16th schema of the corpus, each breakage at one of its positions (chosen by a fixed rotation).
    let refused = 0;
    let cases = 0;
    for (let index = 0; index < corpus.length; index += 16) {
      const schema = corpus[index] as JsonObject;
      const spots = positions(schema);
      for (const [which, breakage] of BREAKAGES.entries()) {
        const path = spots[(index + which) % spots.length] as string[];
        // A root that is not an object is refused before any compiling, the same way in both.
        if (path.length === 0 && 'type' in breakage) continue;
        const broken = planted(schema, path, breakage);
        const name = `planted_${index}_${which}`;
        const expected = referenceVerdict(name, broken);
        expect(await catalogueVerdict(name, broken), `${name} at ${path.join('/')}`).toBe(expected);
        cases += 1;
        if (expected !== 'compiles') refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(cases / 2);
  }, 600_000);

  it('still refuses at registration each kind of schema ajv refuses, naming the tool', () => {
    const refusedByAjv: Record<string, JsonObject> = {
      nullable_without_type: { type: 'object', properties: { a: { nullable: true } } },
      nullable_not_boolean: { type: 'object', properties: { a: { type: 'string', nullable: 'yes' } } },
      legacy_id_keyword: { type: 'object', id: 'orders' },
      pattern_property_not_a_regex: { type: 'object', patternProperties: { '([': { type: 'string' } } },
      ref_to_a_properties_map: {
        type: 'object',
        properties: { id: { type: 'string' }, copy: { $ref: '#/properties' } },
      },
      ref_to_nowhere_in_defs: {
        type: 'object',
        $defs: { a: { $ref: '#/$defs/b' } },
        properties: { x: { $ref: '#/$defs/a' } },
      },
      unknown_meta_schema: { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' },
    };
    for (const [name, schema] of Object.entries(refusedByAjv)) {
      // Once per schema object: ajv caches a schema it was given even when compiling it failed.
      const expected = referenceVerdict(name, structuredClone(schema));
      expect(expected, name).not.toBe('compiles');
      expect(() => createCatalogue([tool(name, schema)]), name).toThrow(SchemaCompileError);
      expect(() => createCatalogue([tool(name, schema)]), name).toThrow(expected);
    }
  });

  it('awaits a `$async` schema: its validator answers with a promise, which is no verdict', async () => {
    const catalogue = createCatalogue([
      tool('notes', { $async: true, type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
    ]);
    expect(await catalogue.validate('notes', { n: 2 })).toEqual({ ok: true, value: { n: 2 } });
    const wrong = await catalogue.validate('notes', { n: 'two' });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.message).toContain('must be of type integer');
  });

  it('validates on first use what it accepted, with the compiled schema', async () => {
    const catalogue = createCatalogue([
      tool('orders', {
        type: 'object',
        properties: { id: { $ref: '#/$defs/orderId' }, note: { type: ['string', 'null'], nullable: true } },
        required: ['id'],
        $defs: { orderId: { type: 'string', pattern: '^O-[0-9]{4}$' } },
      }),
    ]);
    expect(await catalogue.validate('orders', { id: 'O-1234', note: null })).toEqual({
      ok: true,
      value: { id: 'O-1234', note: null },
    });
    const wrong = await catalogue.validate('orders', { id: 'X' });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.message).toContain('must match pattern');
  });
});
