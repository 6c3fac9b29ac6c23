import type { JsonObject } from '@toolcircuit/core';
import type { ProviderViolation } from './provider-violation.js';
import { resolvesLocally, schemaNodes, typesOf } from './schema-nodes.js';

/**
 * Gemini `parametersJsonSchema`: JSON Schema, root an object. Held to the keywords Gemini documents for
 * its JSON Schema support (no `$schema`, no non-standard keys such as BFCL's `optional`), with local
 * references only.
 */
const ALLOWED = new Set([
  'type',
  'title',
  'description',
  'enum',
  'format',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'anyOf',
  '$ref',
  '$defs',
  'default',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

export function checkGeminiJsonSchema(schema: JsonObject): ProviderViolation[] {
  const violations: ProviderViolation[] = [];
  const add = (path: string, rule: string, message: string): void => {
    violations.push({ path, rule: `gemini-json-schema/${rule}`, message });
  };
  if (schema.type !== 'object') add('/type', 'root-not-object', 'the root must be type "object"');
  for (const { node, path } of schemaNodes(schema)) {
    for (const key of Object.keys(node))
      if (!ALLOWED.has(key)) add(`${path}/${key}`, 'unsupported-keyword', `"${key}" is not supported`);
    if (typeof node.$ref === 'string' && !resolvesLocally(schema, node.$ref))
      add(`${path}/$ref`, 'ref-unresolved', `${node.$ref} does not resolve`);
    for (const type of typesOf(node) ?? [])
      if (!TYPES.has(type)) add(`${path}/type`, 'bad-type', `invalid type "${type}"`);
  }
  return violations;
}
