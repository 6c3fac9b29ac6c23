import type { JsonObject } from '@toolcircuit/core';
import type { ProviderViolation } from './provider-violation.js';
import { resolvesLocally, schemaNodes, typesOf } from './schema-nodes.js';

/**
 * Anthropic `input_schema` (wire-formats.md): the root has `type: "object"` (else 400 "input_schema.type:
 * Field required"). Held to the strict-mode subset, as Anthropic's own SDK transform emits it: types,
 * $defs/$ref (alone), anyOf/allOf, enum/const of scalars, string formats from a short list, minItems 0 or 1,
 * additionalProperties only `false`; every node typed unless it is a composition or a reference.
 */
const ALLOWED = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'format',
  '$ref',
  '$defs',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

export function checkAnthropic(schema: JsonObject): ProviderViolation[] {
  const violations: ProviderViolation[] = [];
  const add = (path: string, rule: string, message: string): void => {
    violations.push({ path, rule: `anthropic/${rule}`, message });
  };
  if (schema.type !== 'object') add('/type', 'root-type', 'input_schema.type: Field required (must be "object")');
  for (const { node, path } of schemaNodes(schema)) {
    for (const key of Object.keys(node))
      if (!ALLOWED.has(key)) add(`${path}/${key}`, 'outside-strict-subset', `"${key}" is outside the strict subset`);
    if (typeof node.$ref === 'string') {
      if (Object.keys(node).length > 1) add(path, 'ref-siblings', '$ref must stand alone');
      if (!resolvesLocally(schema, node.$ref)) add(`${path}/$ref`, 'ref-unresolved', `${node.$ref} does not resolve`);
      continue;
    }
    const types = typesOf(node);
    const composed = Array.isArray(node.anyOf) || Array.isArray(node.allOf);
    if (types === undefined && !composed && node.const === undefined && node.enum === undefined) {
      add(path, 'missing-type', 'a schema must have a type unless anyOf/allOf is used');
    }
    for (const type of types ?? []) if (!TYPES.has(type)) add(`${path}/type`, 'bad-type', `invalid type "${type}"`);
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
      add(`${path}/additionalProperties`, 'additional-properties', 'only additionalProperties: false is supported');
    }
    if (node.minItems !== undefined && node.minItems !== 0 && node.minItems !== 1)
      add(`${path}/minItems`, 'min-items', 'minItems must be 0 or 1');
    if (node.format !== undefined && (typeof node.format !== 'string' || !FORMATS.has(node.format))) {
      add(`${path}/format`, 'format', `format ${JSON.stringify(node.format)} is not supported`);
    }
    for (const keyword of ['enum', 'const'] as const) {
      const values = keyword === 'enum' ? node.enum : [node.const];
      if (node[keyword] === undefined) continue;
      if (!Array.isArray(values) || values.some((value) => typeof value === 'object' && value !== null)) {
        add(`${path}/${keyword}`, 'complex-enum', `${keyword} values must be scalars`);
      }
    }
  }
  return violations;
}
