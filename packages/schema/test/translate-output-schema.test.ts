import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { checkProviderSchema, restoreProviderInput, translateOutputSchema } from '../src/index.js';
import { findRecursiveRefs, subschemasOf } from '../src/translate/find-recursive-refs.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { loadExtraCatalogues } from './support/extra-catalogues.js';

const order: JsonObject = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
        required: ['name', 'quantity'],
      },
    },
    note: { type: 'string' },
    // A property named like a keyword: closing must not touch the properties map itself.
    properties: { type: 'object', properties: { colour: { type: 'string' } } },
  },
  required: ['items'],
};

describe('translateOutputSchema', () => {
  it('anthropic: closes the objects that left additionalProperties out, logs it once, carried natively', () => {
    const translated = translateOutputSchema(order, 'anthropic');
    expect(translated.carrier).toBe('native');
    expect(translated.strict).toBe(true);
    const schema = translated.schema as {
      additionalProperties: unknown;
      properties: Record<string, JsonObject>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(['items', 'note', 'properties']);
    expect((schema.properties.items?.items as JsonObject | undefined)?.additionalProperties).toBe(false);
    expect(schema.properties.properties?.additionalProperties).toBe(false);
    // `minimum` is not in Anthropic's subset: moved into the description, as for tools.
    expect(JSON.stringify(schema)).not.toContain('"minimum"');
    // Keys nobody declared are no input, as under openai-strict: logged, but not as a narrowing.
    const closed = translated.changes.filter((change) => change.kind === 'closed-implicit-object');
    expect(closed).toEqual([expect.objectContaining({ path: '' })]);
    expect(closed[0]?.narrows).toBeUndefined();
    expect(translated.changes.some((change) => change.kind === 'closed-object')).toBe(false);
    expect(closed[0]?.detail).toContain('3 objects');
    expect(checkProviderSchema(translated.schema, 'anthropic')).toEqual([]);
  });

  it.each([
    ['a map', { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } }],
    ['open keys', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }],
    [
      'recursion',
      {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        $defs: {
          node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    ],
  ])('anthropic: %s goes by the answer tool, unnarrowed', (_label, schema) => {
    const translated = translateOutputSchema(schema as JsonObject, 'anthropic');
    expect(translated.carrier).toBe('tool');
    expect(translated.changes.some((change) => change.narrows !== undefined)).toBe(false);
  });

  it('openai-strict: strict, every property required and optional ones nullable, restored to omitted', () => {
    const closed = translateOutputSchema(order, 'anthropic').schema;
    const translated = translateOutputSchema(closed, 'openai-strict');
    expect(translated).toMatchObject({ carrier: 'native', strict: true, dialect: 'openai-strict' });
    expect((translated.schema as { required: string[] }).required).toEqual(['items', 'note', 'properties']);
    const answer = { items: [{ name: 'thé', quantity: 2 }], note: null, properties: null };
    expect(restoreProviderInput(closed, answer, 'openai-strict')).toEqual({ items: [{ name: 'thé', quantity: 2 }] });
  });

  it('openai-strict: a schema strict mode would narrow is sent with strict off, as a tool is', () => {
    // Declared properties next to a rule for any other key: strict mode could keep only the declared ones (a
    // pure map would be sent as JSON text instead, and restored).
    const map: JsonObject = {
      type: 'object',
      properties: {
        labels: { type: 'object', properties: { team: { type: 'string' } }, additionalProperties: { type: 'string' } },
      },
    };
    const translated = translateOutputSchema(map, 'openai-strict');
    expect(translated).toMatchObject({ carrier: 'native', strict: false, dialect: 'openai' });
    expect(translated.changes[0]?.kind).toBe('strict-off');
  });

  it('gemini-json-schema: carried natively; the same frozen result for the same schema object', () => {
    const translated = translateOutputSchema(order, 'gemini-json-schema');
    expect(translated.carrier).toBe('native');
    expect(translateOutputSchema(order, 'gemini-json-schema')).toBe(translated);
    expect(Object.isFrozen(translated)).toBe(true);
  });

  it('over the whole corpus as output schemas: what goes natively to Anthropic is closed and not recursive', async () => {
    const files = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
    let native = 0;
    let tool = 0;
    for (const file of files) {
      for (const entry of file.tools) {
        let translated: ReturnType<typeof translateOutputSchema>;
        try {
          translated = translateOutputSchema(entry.inputSchema, 'anthropic');
        } catch {
          continue;
        }
        if (translated.carrier === 'tool') {
          tool += 1;
          continue;
        }
        native += 1;
        expect(openObjects(translated.schema), `${file.source} ${entry.name}`).toEqual([]);
        expect(findRecursiveRefs(translated.schema).size).toBe(0);
      }
    }
    expect(native).toBeGreaterThan(1000);
    expect(tool).toBeGreaterThan(0);
  }, 120_000);
});

/** Pointers of object nodes not closed with `additionalProperties: false`. */
function openObjects(root: JsonObject): string[] {
  const open: string[] = [];
  const visit = (node: JsonValue, pointer: string): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const isObject = node.type === 'object' || (typeof node.properties === 'object' && node.properties !== null);
    if (isObject && node.additionalProperties !== false) open.push(pointer);
    for (const [child, childPointer] of subschemasOf(node, pointer)) visit(child, childPointer);
  };
  visit(root, '');
  return open;
}
