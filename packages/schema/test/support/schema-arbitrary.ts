import type { JsonObject, JsonValue } from '@toolcircuit/core';
import fc from 'fast-check';

/**
 * Generated tool schemas covering the features real catalogues use (KEYWORDS.md): nullable unions in all
 * three spellings, type lists, const/enum (string and integer), bounds, formats, tuples, free-form and
 * closed objects, maps, patterned keys, oneOf of objects, BFCL type names, `$defs` references and a recursive
 * tree; optionals that accept null with and without a default.
 */
const names = fc.constantFrom('a', 'b', 'count', 'json', 'name', 'e f', 'x.y', 'children');

const leaf: fc.Arbitrary<JsonObject> = fc.oneof<fc.Arbitrary<JsonObject>[]>(
  fc.constant<JsonObject>({ type: 'string' }),
  fc.constant<JsonObject>({ type: 'string', minLength: 1, maxLength: 5, description: 'short' }),
  fc.constant<JsonObject>({ type: 'string', format: 'date-time' }),
  fc.constant<JsonObject>({ type: 'string', format: 'uri' }),
  fc.constant<JsonObject>({ type: 'string', enum: ['red', 'green'] }),
  fc.constant<JsonObject>({ type: 'string', const: 'fixed' }),
  fc.constant<JsonObject>({ const: 'workspace' }),
  fc.constant<JsonObject>({ type: 'integer', minimum: 0, maximum: 10 }),
  fc.constant<JsonObject>({ type: 'integer', enum: [1, 2, 7, 13] }),
  fc.constant<JsonObject>({ type: 'number', exclusiveMinimum: 0, default: 5 }),
  fc.constant<JsonObject>({ type: 'boolean' }),
  fc.constant<JsonObject>({ type: 'null' }),
  fc.constant<JsonObject>({}),
  fc.constant<JsonObject>({ description: 'anything at all' }),
  fc.constant<JsonObject>({ type: 'float' }),
  fc.constant<JsonObject>({ type: 'any', description: 'BFCL any' }),
  fc.constant<JsonObject>({ type: 'String', example_value: 'x' }),
  fc.constant<JsonObject>({ type: ['string', 'null'] }),
  fc.constant<JsonObject>({ type: ['string', 'number', 'boolean'] }),
  fc.constant<JsonObject>({ anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Maybe' }),
  fc.constant<JsonObject>({ anyOf: [{ type: 'number' }, { not: {} }, { type: 'null' }] }),
  fc.constant<JsonObject>({ anyOf: [{ type: 'integer' }, { type: 'null' }], default: 3 }),
  fc.constant<JsonObject>({ type: ['string', 'null'], description: 'null and omitted differ' }),
  fc.constant<JsonObject>({ type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }),
);

const schema: fc.Arbitrary<JsonObject> = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .tuple(
        fc.uniqueArray(fc.tuple(names, tie('node')), { minLength: 1, maxLength: 3, selector: ([name]) => name }),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom<JsonValue | undefined>(undefined, false, true, { type: 'string' }),
        fc.constantFrom('object', 'dict'),
      )
      .map(([entries, mask, additional, type]) => {
        const node: JsonObject = { type, properties: Object.fromEntries(entries) };
        const required = entries.map(([name]) => name).filter((_, index) => (mask >> index) % 2 === 1);
        if (required.length > 0) node.required = required;
        if (additional !== undefined) node.additionalProperties = additional;
        return node;
      }),
    tie('node').map((items): JsonObject => ({ type: 'array', items })),
    tie('node').map((items): JsonObject => ({ type: 'array', items, minItems: 1, maxItems: 3 })),
    fc
      .tuple(leaf, leaf)
      .map(
        ([first, second]): JsonObject => ({ type: 'array', prefixItems: [first, second], minItems: 2, maxItems: 2 }),
      ),
    fc.constant<JsonObject>({ type: 'array' }),
    fc.constant<JsonObject>({ type: 'object' }),
    fc.constant<JsonObject>({ type: 'object', additionalProperties: { type: 'integer' } }),
    fc.constant<JsonObject>({ type: ['object', 'null'] }),
    fc.constant<JsonObject>({ type: 'object', properties: {}, additionalProperties: false }),
    fc.constant<JsonObject>({
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^x-[a-z]+$': { type: 'string' } },
      additionalProperties: false,
    }),
    fc.tuple(tie('node'), tie('node')).map(
      ([first, second]): JsonObject => ({
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'first' }, value: first },
            required: ['kind'],
            additionalProperties: false,
          },
          { type: 'object', properties: { other: second }, required: ['other'], additionalProperties: false },
        ],
      }),
    ),
    fc.constant<JsonObject>({ anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] }),
    fc.constant<JsonObject>({ $ref: '#/$defs/point' }),
    fc.constant<JsonObject>({ $ref: '#/$defs/tree', description: 'a tree' }),
  ),
})).node;

const DEFINITIONS: JsonObject = {
  point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
  tree: {
    type: 'object',
    properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/tree' } } },
    required: ['label'],
  },
};

/** A tool's input schema: an object root with one to four parameters. */
export const toolSchemaArbitrary: fc.Arbitrary<JsonObject> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(names, schema), { minLength: 1, maxLength: 4, selector: ([name]) => name }),
    fc.integer({ min: 0, max: 15 }),
  )
  .map(([entries, mask]) => {
    const root: JsonObject = { type: 'object', properties: Object.fromEntries(entries), $defs: DEFINITIONS };
    const required = entries.map(([name]) => name).filter((_, index) => (mask >> index) % 2 === 1);
    if (required.length > 0) root.required = required;
    return root;
  });
