import type { JsonValue } from '@toolcircuit/core';

// Small readers for untyped provider JSON: recorded bodies are data, not types we can trust.

export type JsonRecord = { readonly [key: string]: JsonValue };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordAt(value: unknown, key: string): JsonRecord | undefined {
  if (!isRecord(value)) return undefined;
  const found = value[key];
  return isRecord(found) ? found : undefined;
}

export function arrayAt(value: unknown, key: string): readonly JsonValue[] {
  if (!isRecord(value)) return [];
  const found = value[key];
  return Array.isArray(found) ? found : [];
}

export function stringAt(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const found = value[key];
  return typeof found === 'string' ? found : undefined;
}

export function numberAt(value: unknown, key: string): number | undefined {
  if (!isRecord(value)) return undefined;
  const found = value[key];
  return typeof found === 'number' ? found : undefined;
}

/** `JSON.parse` that answers undefined instead of throwing, for payloads like `[DONE]`. */
export function tryParseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
