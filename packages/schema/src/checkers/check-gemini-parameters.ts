import type { JsonObject } from '@toolcircuit/core';
import type { ProviderViolation } from './provider-violation.js';
import { isObject, schemaNodes } from './schema-nodes.js';

/**
 * Gemini `functionDeclarations[].parameters` (wire-formats.md): an OpenAPI 3.0 subset. Any other key is a
 * 400 "Unknown name X … Cannot find field"; `type` is one proto enum value, not a list ("Proto field is
 * not repeating"), and "must be specified when not using one_of, any_of or all_of"; enum values are
 * strings and only on STRING; string formats only 'enum' and 'date-time'; an OBJECT needs non-empty
 * `properties` ("should be non-empty for OBJECT type"); `properties` "only allowed for OBJECT type".
 */
const ALLOWED = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'anyOf',
  'propertyOrdering',
  'default',
  'example',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

export function checkGeminiParameters(
  schema: JsonObject,
  options: { readonly parametersOmitted?: boolean } = {},
): ProviderViolation[] {
  if (options.parametersOmitted === true) return [];
  const violations: ProviderViolation[] = [];
  const add = (path: string, rule: string, message: string): void => {
    violations.push({ path, rule: `gemini/${rule}`, message });
  };
  if (String(schema.type).toLowerCase() !== 'object') add('', 'root-not-object', 'parameters must be an OBJECT schema');
  for (const { node, path } of schemaNodes(schema)) {
    for (const key of Object.keys(node))
      if (!ALLOWED.has(key)) add(`${path}/${key}`, 'unknown-keyword', `Unknown name "${key}"`);
    const type = typeof node.type === 'string' ? node.type.toLowerCase() : undefined;
    if (Array.isArray(node.type)) add(`${path}/type`, 'type-list', 'type must be a single value');
    else if (node.type !== undefined && (type === undefined || !TYPES.has(type))) {
      add(`${path}/type`, 'bad-type', `invalid type ${JSON.stringify(node.type)}`);
    }
    if (node.type === undefined && !Array.isArray(node.anyOf))
      add(path, 'missing-type', 'type must be specified when not using anyOf');
    if (Array.isArray(node.anyOf) && node.anyOf.length === 0)
      add(`${path}/anyOf`, 'empty-any-of', 'anyOf must not be empty');
    if (node.enum !== undefined) {
      if (type !== 'string') add(`${path}/enum`, 'enum-not-string-type', 'enum is only allowed for STRING type');
      if (!Array.isArray(node.enum) || !node.enum.every((value) => typeof value === 'string')) {
        add(`${path}/enum`, 'enum-not-strings', 'enum values must be strings');
      }
    }
    if (typeof node.format === 'string') {
      const allowed = type === undefined ? undefined : FORMATS[type];
      if (allowed === undefined || !allowed.includes(node.format)) {
        add(`${path}/format`, 'format', `format "${node.format}" is not supported for ${type ?? 'untyped'} values`);
      }
    }
    if (node.properties !== undefined) {
      if (type !== 'object')
        add(`${path}/properties`, 'properties-not-object', 'properties: only allowed for OBJECT type');
      if (!isObject(node.properties) || Object.keys(node.properties).length === 0) {
        add(`${path}/properties`, 'empty-properties', 'properties should be non-empty for OBJECT type');
      }
    } else if (type === 'object') {
      add(path, 'empty-properties', 'properties should be non-empty for OBJECT type');
    }
    if (node.required !== undefined) {
      const names = isObject(node.properties) ? Object.keys(node.properties) : [];
      if (
        !Array.isArray(node.required) ||
        !node.required.every((name) => typeof name === 'string' && names.includes(name))
      ) {
        add(`${path}/required`, 'required-unknown', 'required lists a name that is not a property');
      }
    }
    if (type === 'array' && !isObject(node.items)) add(path, 'missing-items', 'ARRAY needs items');
    if (node.items !== undefined && type !== 'array')
      add(`${path}/items`, 'items-not-array', 'items: only allowed for ARRAY type');
    if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
      add(`${path}/nullable`, 'nullable', 'nullable must be a boolean');
  }
  return violations;
}
