import type { JsonObject } from '@toolcircuit/core';
import type { ProviderViolation } from './provider-violation.js';
import { isObject, resolvesLocally, schemaNodes, typesOf } from './schema-nodes.js';

/**
 * OpenAI without strict mode: the root is `type: "object"` with `properties` (else "object schema missing
 * properties"), every `type` is a JSON Schema type name (BFCL's `dict` is rejected), arrays carry `items`
 * (else "array schema missing items"), references resolve locally.
 */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

export function checkOpenAI(schema: JsonObject): ProviderViolation[] {
  const violations: ProviderViolation[] = [];
  const add = (path: string, rule: string, message: string): void => {
    violations.push({ path, rule: `openai/${rule}`, message });
  };
  if (schema.type !== 'object') add('/type', 'root-not-object', 'the root must be type "object"');
  if (!isObject(schema.properties)) add('', 'missing-properties', 'object schema missing properties');
  for (const { node, path } of schemaNodes(schema)) {
    const types = typesOf(node) ?? [];
    for (const type of types) if (!TYPES.has(type)) add(`${path}/type`, 'bad-type', `invalid type "${type}"`);
    if (types.includes('array') && node.items === undefined && node.prefixItems === undefined)
      add(path, 'missing-items', 'array schema missing items');
    if (typeof node.$ref === 'string' && !resolvesLocally(schema, node.$ref))
      add(`${path}/$ref`, 'ref-unresolved', `${node.$ref} does not resolve`);
  }
  return violations;
}
