import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { SchemaRefusalReason } from '../errors/schema-translation-error.js';
import { isJsonObject } from '../json-utils.js';

/** OpenAI Structured Outputs limits: 10 levels of object nesting, 5,000 properties, 1,000 enum values. */
export const OPENAI_STRICT_LIMITS = Object.freeze({ nesting: 10, properties: 5000, enumValues: 1000 });

/** The first OpenAI strict limit a translated schema exceeds, or undefined. */
export function exceededStrictLimit(schema: JsonObject): { reason: SchemaRefusalReason; detail: string } | undefined {
  let properties = 0;
  let enumValues = 0;
  let deepest = 0;
  const visit = (node: JsonValue, depth: number): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth);
      return;
    }
    if (!isJsonObject(node)) return;
    const isObject = isJsonObject(node.properties);
    const level = isObject ? depth + 1 : depth;
    deepest = Math.max(deepest, level);
    if (isJsonObject(node.properties)) {
      properties += Object.keys(node.properties).length;
      for (const child of Object.values(node.properties)) visit(child, level);
    }
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    for (const key of ['items', 'anyOf', '$defs'] as const) {
      const child = node[key];
      if (key === '$defs' && isJsonObject(child)) for (const definition of Object.values(child)) visit(definition, 0);
      else if (child !== undefined) visit(child, level);
    }
  };
  visit(schema, 0);
  if (deepest > OPENAI_STRICT_LIMITS.nesting) {
    return {
      reason: 'too_deep',
      detail: `${deepest} levels of nested objects (OpenAI strict allows ${OPENAI_STRICT_LIMITS.nesting})`,
    };
  }
  if (properties > OPENAI_STRICT_LIMITS.properties) {
    return {
      reason: 'too_many_properties',
      detail: `${properties} properties (OpenAI strict allows ${OPENAI_STRICT_LIMITS.properties})`,
    };
  }
  if (enumValues > OPENAI_STRICT_LIMITS.enumValues) {
    return {
      reason: 'too_many_enum_values',
      detail: `${enumValues} enum values (OpenAI strict allows ${OPENAI_STRICT_LIMITS.enumValues})`,
    };
  }
  return undefined;
}
