// A value inside JSON arguments by its JSON Pointer (plain segments: what the suite's paths are).
import type { JsonValue } from '../../src/index.js';

export function leafAt(input: JsonValue, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = input;
  for (const segment of path.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, JsonValue>)[segment];
  }
  return value;
}
