import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import {
  checkProviderSchema,
  RECURSION_UNROLL_DEPTH,
  restoreProviderInput,
  restoreStrictInput,
  SCHEMA_TARGETS,
  type SchemaChange,
  SchemaTranslationError,
  translateSchema,
} from '../src/index.js';

function changeAt(
  changes: readonly SchemaChange[],
  path: string,
  kind: SchemaChange['kind'],
): SchemaChange | undefined {
  return changes.find((change) => change.path === path && change.kind === kind);
}

function refusal(run: () => unknown): SchemaTranslationError {
  try {
    run();
  } catch (error) {
    if (error instanceof SchemaTranslationError) return error;
    throw error;
  }
  throw new Error('expected a SchemaTranslationError');
}

const pydanticStyle: JsonObject = {
  type: 'object',
  $schema: 'http://json-schema.org/draft-07/schema#',
  properties: {
    query: { type: 'string', format: 'uri', minLength: 3 },
    limit: { anyOf: [{ type: 'integer', exclusiveMinimum: 0 }, { type: 'null' }], default: null, title: 'Limit' },
    mode: { type: ['string', 'null'], enum: ['fast', 'slow', null] },
    kind: { const: 'search' },
    level: { type: 'integer', enum: [1, 2, 7, 13] },
    where: { $ref: '#/$defs/place' },
  },
  required: ['query', 'kind'],
  additionalProperties: false,
  $defs: { place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('gemini (OpenAPI subset of `parameters`)', () => {
  const { schema, changes } = translateSchema(pydanticStyle, 'gemini');
  const properties = schema.properties as Record<string, JsonObject>;

  it('turns null unions and type lists into nullable, const into a one-value enum, refs into inline schemas', () => {
    expect(properties.limit).toEqual({
      type: 'integer',
      minimum: 0,
      nullable: true,
      default: null,
      title: 'Limit',
      description: '(exclusiveMinimum: 0)',
    });
    expect(properties.mode).toMatchObject({ type: 'string', nullable: true, enum: ['fast', 'slow'] });
    expect(properties.kind).toEqual({ type: 'string', enum: ['search'] });
    expect(properties.where).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(changeAt(changes, '/properties/mode/type', 'rewritten')).toBeDefined();
    expect(changeAt(changes, '/properties/kind/const', 'rewritten')).toBeDefined();
    expect(changeAt(changes, '/properties/where/$ref', 'inlined-ref')).toBeDefined();
  });

  it('moves what Gemini rejects into the description and logs each keyword at its original path', () => {
    expect(properties.query).toEqual({ type: 'string', minLength: 3, description: '(format: uri)' });
    expect(properties.level).toEqual({ type: 'integer', description: '(allowed values: [1,2,7,13])' });
    expect(changeAt(changes, '/properties/query/format', 'moved-to-description')?.keyword).toBe('format');
    expect(changeAt(changes, '/properties/level/enum', 'moved-to-description')).toBeDefined();
    expect(changeAt(changes, '/additionalProperties', 'dropped')).toBeDefined();
    expect(changeAt(changes, '/$schema', 'dropped')).toBeDefined();
    expect(schema.$schema).toBeUndefined();
    expect(schema.additionalProperties).toBeUndefined();
    expect(checkProviderSchema(schema, 'gemini')).toEqual([]);
  });

  it('declares no parameters for a tool without any (Gemini rejects an empty OBJECT)', () => {
    for (const empty of [
      {},
      { type: 'object' },
      { type: 'object', properties: {} },
      { type: 'dict', properties: {}, required: [] },
    ]) {
      // These roots declare no parameters and say nothing of other keys: keys nobody declared are no input,
      // so the tool keeps `parameters` (omitted) and the change log names the closing.
      const translated = translateSchema(empty, 'gemini');
      expect(translated).toMatchObject({ dialect: 'gemini', omitParameters: true });
      expect(changeAt(translated.changes, '', 'omitted-parameters')?.narrows).toBeUndefined();
      expect(changeAt(translated.changes, '', 'closed-implicit-object')).toBeDefined();
      expect(translated.changes.some((change) => change.narrows !== undefined)).toBe(false);
      expect(checkProviderSchema(translated.schema, 'gemini')).not.toEqual([]);
      expect(checkProviderSchema(translated.schema, 'gemini', { parametersOmitted: true })).toEqual([]);
      // With keepUndeclaredKeys those keys are inputs, which a tool without `parameters` cannot receive: the
      // tool is then declared with `parametersJsonSchema`, which keeps the object open.
      const complete = translateSchema(empty, 'gemini', { keepUndeclaredKeys: true });
      expect(complete.dialect).toBe('gemini-json-schema');
      expect(complete.omitParameters).toBeUndefined();
      expect(complete.schema).toEqual({ type: 'object', properties: {} });
      expect(complete.changes[0]).toMatchObject({ path: '', kind: 'json-schema-parameters' });
      expect(complete.changes[0]?.detail).toContain('omitted-parameters');
    }
    // A root that DECLARES open keys takes arguments nobody can list: it keeps parametersJsonSchema.
    const open = translateSchema({ type: 'object', properties: {}, additionalProperties: true }, 'gemini');
    expect(open.dialect).toBe('gemini-json-schema');
    expect(open.changes[0]?.detail).toContain('omitted-parameters: any argument at all');
    // A closed root without properties accepts only `{}`: nothing is lost by omitting `parameters`.
    const closed = translateSchema({ type: 'object', properties: {}, additionalProperties: false }, 'gemini');
    expect(closed).toMatchObject({ dialect: 'gemini', omitParameters: true });
    expect(translateSchema({ type: 'object', properties: {} }, 'anthropic').omitParameters).toBeUndefined();
  });

  it('sends values it cannot describe as JSON text and restores them before the tool sees them', () => {
    const original: JsonObject = {
      type: 'object',
      properties: {
        payload: { description: 'anything' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['payload'],
    };
    const translated = translateSchema(original, 'gemini');
    expect(translated.requiresRestore).toBe(true);
    expect((translated.schema.properties as Record<string, JsonObject>).headers).toMatchObject({ type: 'string' });
    const sent = { payload: '{"a":[1,2]}', headers: '{"x-id":"7"}' };
    expect(restoreProviderInput(original, sent, 'gemini')).toEqual({
      payload: { a: [1, 2] },
      headers: { 'x-id': '7' },
    });
    // Text that is not JSON reaches the executor as it is, and fails validation there by name.
    expect(restoreProviderInput(original, { payload: 'not json' }, 'gemini')).toEqual({ payload: 'not json' });
  });

  it('unrolls a recursive schema to a fixed depth and carries deeper levels as JSON text', () => {
    const tree: JsonObject = {
      type: 'object',
      properties: {
        root: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/properties/root' } } },
          required: ['name'],
        },
      },
      required: ['root'],
    };
    const translated = translateSchema(tree, 'gemini');
    expect(JSON.stringify(translated.schema)).not.toContain('$ref');
    expect(checkProviderSchema(translated.schema, 'gemini')).toEqual([]);
    let node: JsonValue | undefined = (translated.schema.properties as JsonObject).root;
    let levels = 0;
    while (typeof node === 'object' && node !== null && !Array.isArray(node) && node.type === 'object') {
      levels += 1;
      node = ((node.properties as JsonObject).children as JsonObject).items;
    }
    expect(levels).toBe(RECURSION_UNROLL_DEPTH);
    expect(node).toMatchObject({ type: 'string' });
    expect(changeAt(translated.changes, '/properties/root', 'recursion-bounded')).toBeDefined();

    const deep = {
      name: 'a',
      children: [{ name: 'b', children: [{ name: 'c', children: ['{"name":"d","children":[{"name":"e"}]}'] }] }],
    };
    expect(restoreProviderInput(tree, { root: deep }, 'gemini')).toEqual({
      root: {
        name: 'a',
        children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [{ name: 'e' }] }] }] }],
      },
    });
  });
});

describe('openai-strict', () => {
  const original: JsonObject = {
    type: 'object',
    properties: {
      city: { type: 'string', default: 'Paris' },
      days: { type: 'integer', minimum: 1 },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      filter: { type: 'object', properties: { tag: { type: 'string' } } },
    },
    required: ['city', 'note'],
  };
  // The strict dialect itself, undeclared keys counted as inputs; by default this tool is strict (its objects
  // only omit additionalProperties), and with keepUndeclaredKeys it is sent with `strict: false` (tested below).
  const translated = translateSchema(original, 'openai-strict', { fallback: false, keepUndeclaredKeys: true });
  const properties = translated.schema.properties as Record<string, JsonObject>;
  const own = { fallback: false } as const;

  it('requires every property, makes optionals nullable and closes every object', () => {
    expect(translated.schema.required).toEqual(['city', 'days', 'note', 'filter']);
    expect(translated.schema.additionalProperties).toBe(false);
    expect(properties.days?.type).toEqual(['integer', 'null']);
    expect(properties.filter).toMatchObject({
      type: ['object', 'null'],
      required: ['tag'],
      additionalProperties: false,
    });
    expect(changeAt(translated.changes, '/properties/days', 'made-nullable')).toBeDefined();
    expect(changeAt(translated.changes, '', 'closed-object')?.narrows).toBe('keys the root declares no property for');
    expect(properties.city?.description).toBe('(default: "Paris")');
    expect(checkProviderSchema(translated.schema, 'openai-strict')).toEqual([]);
    // By default the same objects are closed as declaring nothing beyond their properties: the same schema,
    // no declared input lost, strict kept.
    const closing = translateSchema(original, 'openai-strict');
    expect(closing.dialect).toBe('openai-strict');
    expect(closing.schema).toEqual(translated.schema);
    expect(changeAt(closing.changes, '', 'closed-implicit-object')?.narrows).toBeUndefined();
    expect(changeAt(closing.changes, '/properties/filter', 'closed-implicit-object')).toBeDefined();
    expect(closing.changes.filter((change) => change.narrows !== undefined)).toEqual([]);
  });

  it('maps null back to "omitted" for optional properties only', () => {
    const sent = { city: 'Oslo', days: null, note: null, filter: { tag: null } };
    expect(restoreProviderInput(original, sent, 'openai-strict', own)).toEqual({
      city: 'Oslo',
      note: null,
      filter: {},
    });
    expect(
      restoreProviderInput(original, { city: 'Oslo', days: 3, note: 'x', filter: null }, 'openai-strict', own),
    ).toEqual({ city: 'Oslo', days: 3, note: 'x' });
  });

  it('sends a tool that strict mode would narrow with strict: false, faithfully, and says what it costs', () => {
    const fallback = translateSchema(original, 'openai-strict', { keepUndeclaredKeys: true });
    expect(fallback.dialect).toBe('openai');
    expect(fallback.schema).toEqual(translateSchema(original, 'openai').schema);
    const [first] = fallback.changes;
    expect(first).toMatchObject({ path: '', kind: 'strict-off' });
    expect(first?.narrows).toBeUndefined();
    expect(first?.detail).toContain('/properties/filter closed-object');
    expect(first?.detail).toContain('(root) closed-object');
    expect(first?.detail).toContain("strict mode's guarantee");
    // The faithful schema needs no restoring: an explicit null and an undeclared key both reach the tool.
    const sent = { city: 'Oslo', note: null, extra: 1 };
    expect(restoreStrictInput(original, sent, { keepUndeclaredKeys: true })).toEqual(sent);
    expect(fallback.requiresRestore).toBeUndefined();
    // Objects that DECLARE open keys stay inputs by default too.
    const labels: JsonObject = {
      type: 'object',
      properties: { name: { type: 'string' }, labels: { type: 'object', properties: {}, additionalProperties: true } },
      required: ['name'],
      additionalProperties: { type: 'string' },
    };
    const declared = translateSchema(labels, 'openai-strict');
    expect(declared.dialect).toBe('openai');
    expect(declared.changes[0]?.detail).toContain('(root) closed-object: keys the root declares no property for');
    // A tool strict mode keeps whole stays strict.
    const closed: JsonObject = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
      additionalProperties: false,
    };
    expect(translateSchema(closed, 'openai-strict')).toMatchObject({ dialect: 'openai-strict' });
    expect(restoreStrictInput(closed, { city: 'Oslo', days: null })).toEqual({ city: 'Oslo' });
  });

  it('keeps recursion as $defs references', () => {
    const recursive: JsonObject = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      required: ['tree'],
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    };
    const strict = translateSchema(recursive, 'openai-strict', own);
    expect(strict.schema.$defs).toBeDefined();
    expect(JSON.stringify(strict.schema)).toContain('"$ref":"#/$defs/node"');
    expect(checkProviderSchema(strict.schema, 'openai-strict')).toEqual([]);
    expect(restoreProviderInput(recursive, { tree: { children: [{ children: null }] } }, 'openai-strict', own)).toEqual(
      { tree: { children: [{}] } },
    );
  });

  it('refuses, by name, what strict mode cannot express', () => {
    const map = refusal(() =>
      translateSchema({ type: 'object', additionalProperties: { type: 'string' } }, 'openai-strict', {
        toolName: 'set_headers',
        fallback: false,
      }),
    );
    expect(map.reason).toBe('free_form_root');
    expect(map.kind).toBe('configuration');
    expect(map.message).toContain('set_headers');
    expect(map.message).toContain('openai-strict');

    let deep: JsonObject = { type: 'string' };
    for (let level = 0; level < 11; level += 1)
      deep = { type: 'object', properties: { next: deep }, required: ['next'] };
    expect(refusal(() => translateSchema(deep, 'openai-strict', own)).reason).toBe('too_deep');

    const many = {
      type: 'object',
      properties: { pick: { type: 'string', enum: Array.from({ length: 1001 }, (_, index) => `v${index}`) } },
    };
    expect(refusal(() => translateSchema(many, 'openai-strict', own)).reason).toBe('too_many_enum_values');
    // The same schemas are fine where the limits do not apply.
    expect(() => translateSchema(deep, 'anthropic')).not.toThrow();
    // By default such a tool is sent with strict: false, and the change names the refusal it avoids.
    const sent = translateSchema(many, 'openai-strict');
    expect(sent.dialect).toBe('openai');
    expect(sent.changes[0]?.detail).toContain('refuses it (too_many_enum_values');
  });
});

describe('openai-strict keeps strict mode wherever no declared input is lost', () => {
  const sendsStrict = (schema: JsonObject): boolean =>
    translateSchema(schema, 'openai-strict').dialect === 'openai-strict';

  it('an optional property that accepts null and declares a default is required as it is, and null stays null', () => {
    // Pydantic's `Optional[str] = None` and a nullable limit with a non-null default.
    const search: JsonObject = {
      type: 'object',
      properties: {
        query: { type: 'string' },
        lang: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        limit: { type: ['integer', 'null'], default: 250 },
      },
      required: ['query'],
    };
    const translated = translateSchema(search, 'openai-strict');
    expect(translated.dialect).toBe('openai-strict');
    expect(translated.changes.filter((change) => change.narrows !== undefined)).toEqual([]);
    expect(changeAt(translated.changes, '/properties/lang', 'required-with-default')?.detail).toContain('default null');
    expect(changeAt(translated.changes, '/properties/limit', 'required-with-default')?.detail).toContain('default 250');
    const properties = translated.schema.properties as Record<string, JsonObject>;
    expect(translated.schema.required).toEqual(['query', 'lang', 'limit']);
    expect(properties.limit).toMatchObject({ type: ['integer', 'null'], description: '(default: 250)' });
    expect(checkProviderSchema(translated.schema, 'openai-strict')).toEqual([]);
    // An explicit null is the tool's null; where the model would have left a key out it sends the default.
    const sent = { query: 'q', lang: null, limit: null };
    expect(restoreStrictInput(search, sent)).toEqual(sent);
    expect(restoreStrictInput(search, { query: 'q', lang: 'fr', limit: 250 })).toEqual({
      query: 'q',
      lang: 'fr',
      limit: 250,
    });
  });

  it('an optional property that accepts null WITHOUT a default still falls back: null and omitted differ', () => {
    const emulate: JsonObject = {
      type: 'object',
      properties: { colorScheme: { type: ['string', 'null'], enum: ['dark', 'light', null] } },
    };
    const translated = translateSchema(emulate, 'openai-strict');
    expect(translated.dialect).toBe('openai');
    expect(translated.changes[0]?.detail).toContain(
      'an explicit null for "colorScheme" arrives as "colorScheme" omitted',
    );
    // A default the original refuses stands for nothing.
    const refused: JsonObject = {
      type: 'object',
      properties: { n: { type: ['integer', 'null'], minimum: 1, default: 0 } },
    };
    expect(sendsStrict(refused)).toBe(false);
    // A property whose original refuses null, however that is written, has no explicit null to lose: strict
    // keeps it, null means omitted, and a null default stands for nothing.
    for (const nullRefused of [
      { type: 'string', default: null },
      { anyOf: [{ type: 'string' }, { type: 'null' }], not: { type: 'null' }, default: null },
      { type: ['string', 'null'], enum: ['a', 'b'], default: null },
    ]) {
      const schema: JsonObject = { type: 'object', properties: { s: nullRefused }, additionalProperties: false };
      const strict = translateSchema(schema, 'openai-strict');
      expect(strict.dialect).toBe('openai-strict');
      expect(changeAt(strict.changes, '/properties/s', 'made-nullable')?.narrows).toBeUndefined();
      expect(restoreStrictInput(schema, { s: null })).toEqual({});
    }
  });

  it('keys matching patternProperties are declared inputs, even beside additionalProperties: false', () => {
    const patterned: JsonObject = {
      type: 'object',
      properties: {
        headers: {
          type: 'object',
          properties: { accept: { type: 'string' } },
          patternProperties: { '^x-': { type: 'string' } },
          additionalProperties: false,
        },
      },
      required: ['headers'],
      additionalProperties: false,
    };
    const own = translateSchema(patterned, 'openai-strict', { fallback: false });
    expect(changeAt(own.changes, '/properties/headers', 'closed-object')?.narrows).toBe(
      'keys the object at /properties/headers declares no property for',
    );
    expect(translateSchema(patterned, 'openai-strict').dialect).toBe('openai');
  });

  it('a root union with a variant that declares open keys is not closed silently', () => {
    const variants: JsonObject = {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: true },
      ],
    };
    expect(sendsStrict(variants)).toBe(false);
    const implicit: JsonObject = {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      ],
    };
    expect(sendsStrict(implicit)).toBe(true);
  });

  it('closed union branches that share no required key are told apart by the keys strict mode always sends', () => {
    // Notion-style blocks: every key optional, each branch closed, nested values restored differently.
    const link: JsonObject = { type: 'object', description: 'free-form: JSON text on the strict side' };
    const block = (kind: string): JsonObject => ({
      type: 'object',
      properties: {
        type: { type: 'string', enum: [kind] },
        [kind]: { type: 'object', properties: { text: { type: 'string' }, link }, required: ['text'] },
      },
      additionalProperties: false,
    });
    const append: JsonObject = {
      type: 'object',
      properties: { children: { type: 'array', items: { anyOf: [block('paragraph'), block('quote')] } } },
      required: ['children'],
    };
    const translated = translateSchema(append, 'openai-strict');
    expect(translated.changes.map((change) => change.kind)).not.toContain('ambiguous-restore');
    expect(translated.dialect).toBe('openai-strict');
    const sent = {
      children: [
        { type: 'quote', quote: { text: 'a', link: '{"url":"https://example.com"}' } },
        { type: null, paragraph: { text: 'b', link: null } },
      ],
    };
    expect(restoreStrictInput(append, sent)).toEqual({
      children: [
        { type: 'quote', quote: { text: 'a', link: { url: 'https://example.com' } } },
        { paragraph: { text: 'b' } },
      ],
    });
  });
});

describe('anthropic', () => {
  it('gives every root `type: "object"` and refuses a root that is not an object', () => {
    expect(translateSchema({}, 'anthropic').schema).toEqual({ type: 'object', properties: {} });
    expect(translateSchema({ properties: { a: { type: 'string' } } }, 'anthropic').schema).toMatchObject({
      type: 'object',
    });
    const error = refusal(() =>
      translateSchema({ type: 'array', items: { type: 'string' } }, 'anthropic', { toolName: 'list' }),
    );
    expect(error.reason).toBe('root_not_object');
    expect(error.path).toBe('/type');
  });

  it('stays inside the strict subset: bounds move to the description, listed formats and minItems 0/1 stay', () => {
    const translated = translateSchema(
      {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', pattern: '^https' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
          pairs: { type: 'array', items: { type: 'string' }, minItems: 2 },
          free: {},
        },
      },
      'anthropic',
    );
    const properties = translated.schema.properties as Record<string, JsonObject>;
    expect(properties.url).toEqual({ type: 'string', format: 'uri', description: '(pattern: "^https")' });
    expect(properties.tags?.minItems).toBe(1);
    expect(properties.pairs?.minItems).toBeUndefined();
    expect(properties.free?.type).toEqual(['string', 'number', 'boolean', 'object', 'array', 'null']);
    expect(checkProviderSchema(translated.schema, 'anthropic')).toEqual([]);
  });
});

describe('openai (not strict)', () => {
  it('passes schemas through, fixing only the root and arrays without items', () => {
    const original: JsonObject = {
      type: 'object',
      properties: { ids: { type: 'array' }, code: { type: 'string', pattern: '^[A-Z]{3}$' } },
    };
    const translated = translateSchema(original, 'openai');
    expect(translated.schema).toEqual({
      type: 'object',
      properties: { ids: { type: 'array', items: {} }, code: { type: 'string', pattern: '^[A-Z]{3}$' } },
    });
    expect(translateSchema({ type: 'object' }, 'openai').schema).toEqual({ type: 'object', properties: {} });
  });
});

describe('gemini-json-schema', () => {
  it('keeps real JSON Schema (maps, tuples, recursion through $defs) minus dialect markers', () => {
    const translated = translateSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }] },
          tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/properties/tree' } } } },
        },
      },
      'gemini-json-schema',
    );
    const properties = translated.schema.properties as Record<string, JsonObject>;
    expect(translated.schema.$schema).toBeUndefined();
    expect(properties.headers).toEqual({ type: 'object', properties: {}, additionalProperties: { type: 'string' } });
    expect(properties.range?.prefixItems).toEqual([{ type: 'integer' }, { type: 'integer' }]);
    expect(properties.tree).toEqual({ $ref: '#/$defs/tree' });
    expect(checkProviderSchema(translated.schema, 'gemini-json-schema')).toEqual([]);
  });
});

describe('every target', () => {
  it('maps BFCL type names and refuses unknown ones by name and path', () => {
    const bfcl: JsonObject = {
      type: 'dict',
      properties: {
        ratio: { type: 'float' },
        items: { type: 'ArrayList', items: { type: 'String' } },
        any: { type: 'any' },
      },
      required: ['ratio'],
    };
    for (const target of SCHEMA_TARGETS) {
      const translated = translateSchema(bfcl, target);
      expect(translated.schema.type).toBe('object');
      expect(changeAt(translated.changes, '/properties/ratio/type', 'type-mapped')?.detail).toContain('number');
      expect(
        checkProviderSchema(translated.schema, translated.dialect, {
          parametersOmitted: translated.omitParameters === true,
        }),
      ).toEqual([]);
      const error = refusal(() =>
        translateSchema({ type: 'object', properties: { x: { type: 'decimal' } } }, target, { toolName: 'pay' }),
      );
      expect(error).toMatchObject({
        reason: 'unknown_type',
        path: '/properties/x/type',
        target,
        toolName: 'pay',
        code: 'schema_untranslatable',
      });
      expect(error.message).toMatch(/pay.*\/properties\/x\/type.*unknown_type/);
    }
  });

  it('never mutates the catalogue schema and returns frozen results', () => {
    const frozen = deepFreeze(structuredClone(pydanticStyle));
    for (const target of SCHEMA_TARGETS) {
      const translated = translateSchema(frozen, target);
      expect(Object.isFrozen(translated.schema)).toBe(true);
      expect(translated.schema).not.toBe(frozen);
    }
    expect(frozen).toEqual(pydanticStyle);
  });

  it('refuses references that point outside the schema', () => {
    const error = refusal(() =>
      translateSchema({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, 'gemini', {
        toolName: 'remote',
      }),
    );
    expect(error).toMatchObject({ reason: 'unresolvable_ref', path: '/properties/a/$ref' });
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
