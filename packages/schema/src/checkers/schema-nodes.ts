import type { JsonObject, JsonValue } from '@toolcircuit/core';

/**
 * The checkers' own traversal, written apart from the translator on purpose: a checker that shared the
 * translator's walk would share its blind spots.
 */
export interface SchemaNode {
  readonly node: JsonObject;
  readonly path: string;
  /** The keyword that led here (`properties`, `items`, `anyOf`…), undefined at the root. */
  readonly via: string | undefined;
}

const ONE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalItems',
];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const NAMED = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function token(value: string | number): string {
  return String(value).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Every schema object in the document, depth first, with its pointer. */
export function schemaNodes(root: JsonObject): SchemaNode[] {
  const found: SchemaNode[] = [];
  const visit = (value: JsonValue, path: string, via: string | undefined): void => {
    if (!isObject(value)) return;
    found.push({ node: value, path, via });
    for (const keyword of ONE) {
      const child = value[keyword];
      if (Array.isArray(child)) {
        for (const [index, item] of child.entries()) visit(item, `${path}/${keyword}/${index}`, keyword);
      } else if (child !== undefined) {
        visit(child, `${path}/${keyword}`, keyword);
      }
    }
    for (const keyword of MANY) {
      const child = value[keyword];
      if (Array.isArray(child))
        for (const [index, item] of child.entries()) visit(item, `${path}/${keyword}/${index}`, keyword);
    }
    for (const keyword of NAMED) {
      const child = value[keyword];
      if (isObject(child))
        for (const [name, item] of Object.entries(child)) visit(item, `${path}/${keyword}/${token(name)}`, keyword);
    }
  };
  visit(root, '', undefined);
  return found;
}

/** Resolves `#` / `#/a/b` inside the document (the checkers only accept local references). */
export function resolvesLocally(root: JsonObject, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) return false;
  let current: JsonValue = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    // Pointers step through arrays by index too (`#/anyOf/0/properties/x`).
    let next: JsonValue | undefined;
    if (Array.isArray(current)) next = /^(0|[1-9][0-9]*)$/.test(key) ? current[Number(key)] : undefined;
    else if (isObject(current) && Object.hasOwn(current, key)) next = current[key];
    if (next === undefined) return false;
    current = next;
  }
  return isObject(current);
}

export function typesOf(node: JsonObject): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.map(String);
  return undefined;
}
