import type { JsonObject, JsonValue } from '@toolcircuit/core';

/** One `PartialArg` of a Vertex `streamFunctionCallArguments` stream. */
interface PartialArg {
  readonly jsonPath?: string;
  readonly stringValue?: string;
  readonly numberValue?: number;
  readonly boolValue?: boolean;
  readonly nullValue?: string;
  readonly willContinue?: boolean;
}

/**
 * Builds the arguments of a call that arrives in pieces (Vertex AI's `streamFunctionCallArguments`:
 * `{name, willContinue: true}`, then `{partialArgs: [{jsonPath, stringValue, willContinue}]}` parts, then
 * an empty `{}` functionCall that closes it). The Gemini Developer API sends whole calls instead; this
 * exists so a Vertex client's stream is assembled rather than misread.
 *
 * String pieces for the same path are concatenated (a value that `willContinue` is followed by the rest).
 */
export function applyPartialArgs(args: JsonObject, partialArgs: unknown): void {
  if (!Array.isArray(partialArgs)) return;
  for (const candidate of partialArgs) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const partial = candidate as PartialArg;
    const path = parseJsonPath(partial.jsonPath ?? '');
    if (path === undefined || path.length === 0) continue;
    const value = partialValue(partial);
    if (value === undefined) continue;
    setAt(args, path, value, typeof value === 'string');
  }
}

function partialValue(partial: PartialArg): JsonValue | undefined {
  if (partial.stringValue !== undefined) return partial.stringValue;
  if (partial.numberValue !== undefined) return partial.numberValue;
  if (partial.boolValue !== undefined) return partial.boolValue;
  if (partial.nullValue !== undefined) return null;
  return undefined;
}

/** `$.a.b[0]['c d']` → `['a', 'b', 0, 'c d']`; `undefined` for anything else. */
function parseJsonPath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: (string | number)[] = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    const [, name, index, single, double] = match;
    segments.push(index !== undefined ? Number(index) : (name ?? single ?? double ?? ''));
  }
  return segments;
}

function setAt(root: JsonObject, path: readonly (string | number)[], value: JsonValue, append: boolean): void {
  let container: JsonObject | JsonValue[] = root;
  for (const [position, segment] of path.entries()) {
    const last = position === path.length - 1;
    const next = path[position + 1];
    const current: JsonValue | undefined = Array.isArray(container)
      ? container[Number(segment)]
      : container[String(segment)];
    if (last) {
      const merged = append && typeof current === 'string' && typeof value === 'string' ? current + value : value;
      if (Array.isArray(container)) container[Number(segment)] = merged;
      else container[String(segment)] = merged;
      return;
    }
    let child: JsonValue | undefined = current;
    if (typeof child !== 'object' || child === null) {
      child = typeof next === 'number' ? [] : {};
      if (Array.isArray(container)) container[Number(segment)] = child;
      else container[String(segment)] = child;
    }
    container = child;
  }
}
