import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { isObject } from './json-pointer.js';

/** One union branch of a schema, forced: the schema with that union replaced by that branch alone. */
export interface ForcedBranch {
  /** `<pointer of the union>/<anyOf|oneOf>/<index>`. */
  readonly branch: string;
  readonly schema: JsonObject;
}

/** Keywords whose values are data, not schemas: never searched for unions. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example', 'required']);

/**
 * Every branch of every `anyOf`/`oneOf` of a schema (`$defs` included), each as a copy of the schema where
 * that union keeps only that branch (the union's other keywords still apply to it), so values generated
 * from the copy exercise the branch. At most `limit` branches, in document order.
 */
export function forcedBranches(root: JsonObject, limit: number): ForcedBranch[] {
  const found: ForcedBranch[] = [];
  const reachable = reachableDefinitions(root);
  const visit = (node: JsonValue, path: readonly string[]): void => {
    if (found.length >= limit) return;
    // A definition nothing references is never exercised by a value: its unions are not the tool's.
    if (
      path.length === 2 &&
      (path[0] === '$defs' || path[0] === 'definitions') &&
      !reachable.has(`#/${path.join('/')}`)
    )
      return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, [...path, String(index)]);
      });
      return;
    }
    if (!isObject(node)) return;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
      branches.forEach((branch, index) => {
        if (found.length >= limit) return;
        const replacement: JsonValue = isObject(branch) ? { ...rest, ...branch } : branch;
        found.push({
          branch: `/${[...path, keyword, String(index)].join('/')}`,
          schema: replaceAt(root, path, replacement) as JsonObject,
        });
      });
    }
    for (const [key, child] of Object.entries(node)) if (!DATA.has(key)) visit(child, [...path, key]);
  };
  visit(root, []);
  return found;
}

function replaceAt(node: JsonValue, path: readonly string[], replacement: JsonValue): JsonValue {
  const [head, ...tail] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(node))
    return node.map((item, index) => (String(index) === head ? replaceAt(item, tail, replacement) : item));
  if (!isObject(node)) return node;
  return { ...node, [head]: replaceAt(node[head] ?? null, tail, replacement) };
}

/** `#/$defs/x` for each definition a `$ref` reaches from outside the definitions, following definitions too. */
function reachableDefinitions(root: JsonObject): Set<string> {
  const reached = new Set<string>();
  const refsIn = (node: JsonValue, skipDefinitions: boolean): string[] => {
    if (Array.isArray(node)) return node.flatMap((item) => refsIn(item, false));
    if (!isObject(node)) return [];
    const refs = typeof node.$ref === 'string' ? [node.$ref] : [];
    for (const [key, child] of Object.entries(node)) {
      if (skipDefinitions && (key === '$defs' || key === 'definitions')) continue;
      if (!DATA.has(key)) refs.push(...refsIn(child, false));
    }
    return refs;
  };
  const pending = refsIn(root, true);
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    const match = /^#\/(\$defs|definitions)\/([^/]+)/.exec(ref);
    if (match === null) continue;
    const key = `#/${match[1]}/${match[2]}`;
    if (reached.has(key)) continue;
    reached.add(key);
    const holder = root[match[1] as string];
    const definition = isObject(holder)
      ? holder[
          decodeURIComponent(match[2] as string)
            .replaceAll('~1', '/')
            .replaceAll('~0', '~')
        ]
      : undefined;
    if (definition !== undefined) pending.push(...refsIn(definition, false));
  }
  return reached;
}
