import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { expect } from 'vitest';
import {
  normalizeSchema,
  restoreProviderInput,
  restoreStrictInput,
  type SchemaTarget,
  SchemaTranslationError,
  translateSchema,
} from '../../src/index.js';
import { compile } from './ajv.js';
import { encodeForProvider } from './provider-encoding.js';

/**
 * The soundness property, for one value valid under the original: the provider-side schema accepts what a
 * model following it sends (for strict: omitted optionals as null, free-form values as JSON text), and
 * restoring gives the original value back.
 */
export function checkRoundTrip(
  original: JsonObject,
  value: unknown,
  target: SchemaTarget,
): { translated: ReturnType<typeof translateSchema>['changes']; restored: unknown } | undefined {
  let translated: ReturnType<typeof translateSchema>;
  try {
    translated = translateSchema(original, target);
  } catch (error) {
    // Refusal is a legitimate outcome; it must be the typed one.
    expect(error).toBeInstanceOf(SchemaTranslationError);
    return undefined;
  }
  const normalized = normalizeSchema(original).schema;
  const { sent, restored } = encodeForProvider(normalized, value, target);
  const accepts = compile(target === 'gemini' ? geminiReading(translated.schema) : translated.schema)(sent);
  if (!accepts) {
    throw new Error(
      `${target} rejects ${JSON.stringify(sent)}\noriginal ${JSON.stringify(original)}\ntranslated ${JSON.stringify(translated.schema)}`,
    );
  }
  const back = restoreProviderInput(original, sent, target);
  expect(back).toEqual(restored);
  if (target === 'openai-strict') expect(restoreStrictInput(original, sent)).toEqual(restored);
  return { translated: translated.changes, restored: back };
}

/**
 * ajv reads OpenAPI `nullable` strictly (3.0.3: an `enum` beside it must list null too), but Gemini enums
 * are strings only, so Gemini's own reading is "nullable: the value may be null". Validate that reading.
 */
function geminiReading(schema: JsonValue): JsonObject {
  const visit = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const copy: JsonObject = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === 'enum' || key === 'default' ? value : visit(value)]),
    );
    if (copy.nullable === true && Array.isArray(copy.enum) && !copy.enum.includes(null))
      copy.enum = [...copy.enum, null];
    return copy;
  };
  const result = visit(schema);
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? result : {};
}
