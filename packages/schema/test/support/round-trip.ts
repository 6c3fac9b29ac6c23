import { isDeepStrictEqual } from 'node:util';
import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { expect } from 'vitest';
import {
  normalizeSchema,
  restoreProviderInput,
  restoreStrictInput,
  type SchemaTarget,
  SchemaTranslationError,
  type TranslateOptions,
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
  options: TranslateOptions = {},
): { translated: ReturnType<typeof translateSchema>['changes']; restored: unknown } | undefined {
  let translated: ReturnType<typeof translateSchema>;
  try {
    translated = translateSchema(original, target, options);
  } catch (error) {
    // Refusal is a legitimate outcome; it must be the typed one.
    expect(error).toBeInstanceOf(SchemaTranslationError);
    return undefined;
  }
  const normalized = normalizeSchema(original).schema;
  // A tool the target sends in a looser dialect (per-tool fallback) is sent by that dialect's rules.
  const { sent, restored } = encodeForProvider(normalized, value, translated.dialect);
  if (!providerAccepts(translated.schema, translated.dialect, sent)) {
    throw new Error(
      `${target} rejects ${JSON.stringify(sent)}\noriginal ${JSON.stringify(original)}\ntranslated ${JSON.stringify(translated.schema)}`,
    );
  }
  const back = restoreProviderInput(original, sent, target, options);
  expect(back).toEqual(restored);
  if (target === 'openai-strict') expect(restoreStrictInput(original, sent, options)).toEqual(restored);
  return { translated: translated.changes, restored: back };
}

/**
 * Completeness for one value valid under the original, as a verdict instead of an assertion: undefined when
 * the provider-side schema accepts what a model following it sends and restoring gives back a value EQUAL to
 * the input (where the model sent a property's declared default for an omitted one, equal to the input with
 * that default filled in); otherwise what went wrong. `fallback: false` turns the per-tool choice of dialect
 * off; `keepUndeclaredKeys` as for `translateSchema`.
 */
export function completenessProblem(
  original: JsonObject,
  value: unknown,
  target: SchemaTarget,
  options: TranslateOptions = {},
): string | undefined {
  let translated: ReturnType<typeof translateSchema>;
  try {
    translated = translateSchema(original, target, options);
  } catch (error) {
    return error instanceof SchemaTranslationError ? undefined : `translation crashed: ${String(error)}`;
  }
  const normalized = normalizeSchema(original).schema;
  const { sent, meant } = encodeForProvider(normalized, value, translated.dialect);
  // Without `parameters` (Gemini), the model can only call the tool with no arguments at all.
  const omitted = translated.omitParameters === true && !(isObjectValue(sent) && Object.keys(sent).length === 0);
  if (omitted || !providerAccepts(translated.schema, translated.dialect, sent))
    return `${translated.dialect} cannot carry ${JSON.stringify(sent)}`;
  const back = restoreProviderInput(original, sent, target, options);
  if (!compile(normalized)(back)) return `restored ${JSON.stringify(back)} is invalid under the original`;
  if (!isDeepStrictEqual(back, meant)) {
    const filled = isDeepStrictEqual(meant, value) ? '' : ` (with declared defaults: ${JSON.stringify(meant)})`;
    return `restored ${JSON.stringify(back)} ≠ sent value ${JSON.stringify(value)}${filled}`;
  }
  return undefined;
}

function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function providerAccepts(schema: JsonObject, dialect: SchemaTarget, sent: unknown): boolean {
  return compile(dialect === 'gemini' ? geminiReading(schema) : schema)(sent);
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
