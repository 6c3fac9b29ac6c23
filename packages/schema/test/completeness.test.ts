import type { JsonObject } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { checkProviderSchema, restoreProviderInput, SCHEMA_TARGETS, translateSchema } from '../src/index.js';
import { compile } from './support/ajv.js';
import { DNS_RECORD } from './support/synthetic-unions.js';

const DNS_INPUTS = [
  { type: 'A', name: 'www', content: '192.0.2.1' },
  { type: 'MX', name: '@', content: 'mail.example.com', priority: 10 },
  { type: 'BUCKET', name: 'b', secret: { project: 'p' } },
  { type: 'S3', name: 's', secret: { accessKey: 'a', secretKey: 'k' } },
];

/** What a model following the translated schema sends for `value` (strict: omitted optionals as null). */
function sentFor(translated: JsonObject, value: JsonObject, strict: boolean): JsonObject {
  if (!strict) return value;
  const properties = translated.properties as JsonObject;
  return Object.fromEntries(Object.keys(properties).map((key) => [key, value[key] ?? null]));
}

describe('root unions', () => {
  it.each(SCHEMA_TARGETS)('%s: every variant of a root oneOf can be sent and restores valid', (target) => {
    const { schema, changes, dialect } = translateSchema(DNS_RECORD, target);
    // Every variant is closed: the merged root loses nothing, so strict mode keeps the tool.
    expect(dialect).toBe(target);
    expect(checkProviderSchema(schema, target)).toEqual([]);
    expect(changes.filter((change) => change.narrows !== undefined)).toEqual([]);
    const original = compile(DNS_RECORD);
    for (const input of DNS_INPUTS) {
      const sent = sentFor(schema, input, target === 'openai-strict');
      expect(compile(schema)(sent), `${target} rejects ${JSON.stringify(sent)}`).toBe(true);
      const restored = restoreProviderInput(DNS_RECORD, sent, target);
      expect(original(restored)).toBe(true);
      expect(restored).toEqual(input);
    }
  });

  it('the discriminator becomes one enum of every variant, and the secret accepts both shapes', () => {
    const { schema } = translateSchema(DNS_RECORD, 'anthropic');
    const properties = schema.properties as JsonObject;
    expect(properties.type).toEqual({ type: 'string', enum: ['A', 'MX', 'BUCKET', 'S3'] });
    expect(schema.required).toEqual(['type', 'name']);
    expect((properties.secret as JsonObject).anyOf).toHaveLength(2);
  });
});

describe('restore by validation', () => {
  // A message body that is either text or JSON, told apart by a const `kind`: both branches carry the
  // same keys, and on openai-strict and gemini the JSON body travels as text too.
  const BODY: JsonObject = {
    type: 'object',
    properties: {
      message: {
        anyOf: [
          {
            type: 'object',
            properties: { kind: { const: 'text' }, body: { type: 'string' } },
            required: ['kind', 'body'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { const: 'json' }, body: { type: 'object' } },
            required: ['kind', 'body'],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ['message'],
    additionalProperties: false,
  };

  it.each(['openai-strict', 'gemini'] as const)(
    '%s: a JSON body comes back as an object, a text body as text',
    (target) => {
      const { changes } = translateSchema(BODY, target);
      expect(changes.map((change) => change.kind)).not.toContain('ambiguous-restore');
      expect(restoreProviderInput(BODY, { message: { kind: 'json', body: '{"a":1}' } }, target)).toEqual({
        message: { kind: 'json', body: { a: 1 } },
      });
      expect(restoreProviderInput(BODY, { message: { kind: 'text', body: '{"a":1}' } }, target)).toEqual({
        message: { kind: 'text', body: '{"a":1}' },
      });
    },
  );

  it('branches nothing tells apart are logged as ambiguous, not chosen silently, and the tool is sent faithfully', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        message: {
          anyOf: [
            { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
            { type: 'object', properties: { body: { type: 'object' } }, required: ['body'] },
          ],
        },
      },
    };
    const { changes } = translateSchema(schema, 'openai-strict', { fallback: false });
    expect(changes).toContainEqual(expect.objectContaining({ path: '/properties/message', kind: 'ambiguous-restore' }));
    // By default neither dialect guesses: the tool goes in the one that needs no restoring choice.
    for (const target of ['openai-strict', 'gemini'] as const) {
      const sent = translateSchema(schema, target);
      expect(sent.changes.map((change) => change.kind)).not.toContain('ambiguous-restore');
      expect(sent.changes[0]?.detail).toContain('/properties/message ambiguous-restore');
      const body = { message: { body: { a: 1 } } };
      expect(restoreProviderInput(schema, body, target)).toEqual(body);
    }
  });
});

describe('maps, narrowing and the checker', () => {
  it('patternProperties beside additionalProperties: false never closes the object', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        labels: { type: 'object', patternProperties: { '^[a-z]+$': { type: 'string' } }, additionalProperties: false },
      },
    };
    for (const target of ['anthropic', 'gemini-json-schema'] as const) {
      const labels = (translateSchema(schema, target).schema.properties as JsonObject).labels as JsonObject;
      expect(labels.additionalProperties).toBeUndefined();
      expect(compile(translateSchema(schema, target).schema)({ labels: { env: 'prod' } })).toBe(true);
    }
    expect(restoreProviderInput(schema, { labels: '{"env":"prod"}' }, 'openai-strict', { fallback: false })).toEqual({
      labels: { env: 'prod' },
    });
  });

  it('a narrowing the provider forces says which inputs it affects', () => {
    const open: JsonObject = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: true,
    };
    const [closed] = translateSchema(open, 'openai-strict', { fallback: false }).changes.filter(
      (change) => change.kind === 'closed-object',
    );
    expect(closed?.narrows).toBe('keys the root declares no property for');
    expect(translateSchema(open, 'anthropic').changes.some((change) => change.narrows !== undefined)).toBe(false);
  });

  it('a $ref under anyOf/0 resolves for the checker (array steps in the pointer)', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'null' }] },
        b: { $ref: '#/properties/a/anyOf/0' },
      },
    };
    expect(checkProviderSchema(schema, 'openai')).toEqual([]);
    expect(
      checkProviderSchema({ type: 'object', properties: { b: { $ref: '#/properties/a/anyOf/7' } } }, 'openai'),
    ).toEqual([expect.objectContaining({ rule: 'openai/ref-unresolved' })]);
  });
});
