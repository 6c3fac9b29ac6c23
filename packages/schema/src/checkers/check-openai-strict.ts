import type { JsonObject } from '@toolcircuit/core';
import type { ProviderViolation } from './provider-violation.js';
import { isObject, resolvesLocally, schemaNodes, typesOf } from './schema-nodes.js';

/**
 * OpenAI `strict: true` (wire-formats.md + the Structured Outputs limits): every object has
 * `additionalProperties: false` and lists every property in `required`; no `default`; `$ref` has no
 * siblings and resolves locally; the root is an object, not an `anyOf`; at most 10 levels of nested
 * objects, 5,000 properties and 1,000 enum values. Keywords are held to the conservative set every strict
 * model accepts (type, properties, required, additionalProperties, items, enum, const, anyOf, $ref, $defs,
 * description, title): pattern/format/bounds are rejected by some models.
 */
const ALLOWED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'description',
  'title',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

export function checkOpenAIStrict(schema: JsonObject): ProviderViolation[] {
  const violations: ProviderViolation[] = [];
  const add = (path: string, rule: string, message: string): void => {
    violations.push({ path, rule: `openai-strict/${rule}`, message });
  };
  if (schema.type !== 'object') add('', 'root-not-object', 'the root must be type "object"');
  if (schema.anyOf !== undefined) add('', 'root-any-of', 'the root must not be anyOf');
  let properties = 0;
  let enumValues = 0;
  for (const { node, path } of schemaNodes(schema)) {
    for (const key of Object.keys(node))
      if (!ALLOWED.has(key)) add(`${path}/${key}`, 'unsupported-keyword', `"${key}" is not supported in strict mode`);
    if (typeof node.$ref === 'string') {
      if (Object.keys(node).length > 1) add(path, 'ref-siblings', '$ref must stand alone');
      if (!resolvesLocally(schema, node.$ref)) add(`${path}/$ref`, 'ref-unresolved', `${node.$ref} does not resolve`);
      continue;
    }
    const types = typesOf(node);
    if (types === undefined && !Array.isArray(node.anyOf) && node.enum === undefined && node.const === undefined) {
      add(path, 'missing-type', 'every schema needs a type (or anyOf/enum/const/$ref)');
    }
    for (const type of types ?? []) if (!TYPES.has(type)) add(`${path}/type`, 'bad-type', `invalid type "${type}"`);
    if (types?.includes('object')) {
      if (node.additionalProperties !== false)
        add(path, 'additional-properties', "'additionalProperties' is required to be supplied and to be false");
      if (!isObject(node.properties)) add(path, 'missing-properties', 'object schema missing properties');
      const names = isObject(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = names.filter((name) => !required.includes(name));
      if (!Array.isArray(node.required) || missing.length > 0) {
        add(
          path,
          'required-all',
          `'required' must include every key in properties (missing ${missing.join(', ') || 'the list'})`,
        );
      }
    }
    if (types?.includes('array') && !isObject(node.items)) add(path, 'missing-items', 'array schema missing items');
    if (isObject(node.properties)) properties += Object.keys(node.properties).length;
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      if (node.enum.some((value) => typeof value === 'object' && value !== null))
        add(`${path}/enum`, 'enum-values', 'enum values must be scalars');
    }
  }
  const depth = nesting(schema, 0);
  if (depth > 10) add('', 'too-deep', `${depth} levels of nested objects (limit 10)`);
  if (properties > 5000) add('', 'too-many-properties', `${properties} properties (limit 5000)`);
  if (enumValues > 1000) add('', 'too-many-enum-values', `${enumValues} enum values (limit 1000)`);
  return violations;
}

function nesting(node: unknown, depth: number): number {
  if (Array.isArray(node)) return Math.max(depth, ...node.map((item) => nesting(item, depth)));
  if (!isObject(node)) return depth;
  const level = isObject(node.properties) ? depth + 1 : depth;
  let deepest = level;
  if (isObject(node.properties))
    for (const child of Object.values(node.properties)) deepest = Math.max(deepest, nesting(child, level));
  if (node.items !== undefined) deepest = Math.max(deepest, nesting(node.items, level));
  if (Array.isArray(node.anyOf)) deepest = Math.max(deepest, nesting(node.anyOf, level));
  if (isObject(node.$defs))
    for (const definition of Object.values(node.$defs)) deepest = Math.max(deepest, nesting(definition, 0));
  return deepest;
}
