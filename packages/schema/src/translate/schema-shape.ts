import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { isJsonObject, jsonTypeOf } from '../json-utils.js';

// Questions the walker asks about a schema node's shape, answered without knowing the target.

export function typeList(type: JsonValue | undefined): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((name): name is string => typeof name === 'string');
  return undefined;
}

const OBJECT_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'propertyNames',
];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/**
 * Types for a node without `type`. From `enum`/`const` values this is exact; from structure keywords it
 * narrows (JSON Schema would accept other types there too), which the walker logs.
 */
export function inferTypes(node: JsonObject): { types: string[]; fromStructure: boolean } | undefined {
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    return { types: [...new Set(node.enum.map((value) => jsonTypeOf(value)))], fromStructure: false };
  }
  if (node.const !== undefined) return { types: [jsonTypeOf(node.const)], fromStructure: false };
  const has = (keywords: readonly string[]): boolean => keywords.some((keyword) => node[keyword] !== undefined);
  if (has(OBJECT_KEYWORDS)) return { types: ['object'], fromStructure: true };
  if (has(ARRAY_KEYWORDS)) return { types: ['array'], fromStructure: true };
  if (has(STRING_KEYWORDS)) return { types: ['string'], fromStructure: true };
  if (has(NUMBER_KEYWORDS)) return { types: ['number'], fromStructure: true };
  return undefined;
}

export function matchesNothing(schema: JsonValue): boolean {
  if (schema === false) return true;
  if (!isJsonObject(schema)) return false;
  return schema.not === true || (isJsonObject(schema.not) && Object.keys(schema.not).length === 0);
}

export function isNullOnly(schema: JsonValue): boolean {
  if (!isJsonObject(schema)) return false;
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null') return true;
  if (schema.const === null && schema.type === undefined) return true;
  return Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null && schema.type === undefined;
}

/** JSON types an emitted schema accepts at its top level (for picking an anyOf branch when restoring). */
export function outputTypes(schema: JsonObject): ReadonlySet<string> {
  const types = new Set<string>();
  const declared = typeList(schema.type);
  if (declared !== undefined) for (const type of declared) types.add(type === 'integer' ? 'number' : type);
  if (schema.nullable === true) types.add('null');
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf)
      if (isJsonObject(branch)) for (const type of outputTypes(branch)) types.add(type);
  }
  if (declared === undefined && !Array.isArray(schema.anyOf)) {
    for (const type of ['string', 'number', 'boolean', 'object', 'array', 'null']) types.add(type);
  }
  return types;
}

/** Keywords that can refuse `null` besides `type`, `enum`, `const` and the combinators read below. */
const NULL_UNDECIDED = ['$ref', '$dynamicRef', 'not', 'if', 'then', 'else'];

/**
 * Whether a schema accepts `null`, read from its keywords where that is exact (`type`, `enum`, `const`,
 * `anyOf`/`oneOf`/`allOf` of such; every other keyword applies to other types only), `undefined` where it is
 * not (a `$ref`, `not`, `if`): the caller then asks a validator. Cheap, so most schemas need none.
 */
export function acceptsNull(schema: JsonValue | undefined): boolean | undefined {
  if (schema === true) return true;
  if (!isJsonObject(schema)) return false;
  if (NULL_UNDECIDED.some((keyword) => schema[keyword] !== undefined)) return undefined;
  const checks: (boolean | undefined)[] = [];
  const types = typeList(schema.type);
  if (schema.type !== undefined) checks.push(types?.includes('null') ?? false);
  if (schema.enum !== undefined) checks.push(Array.isArray(schema.enum) && schema.enum.includes(null));
  if (schema.const !== undefined) checks.push(schema.const === null);
  const branches = (keyword: string): (boolean | undefined)[] | undefined =>
    Array.isArray(schema[keyword]) ? (schema[keyword] as JsonValue[]).map(acceptsNull) : undefined;
  const anyOf = branches('anyOf');
  if (anyOf !== undefined) checks.push(anyOf.includes(true) ? true : anyOf.includes(undefined) ? undefined : false);
  const oneOf = branches('oneOf');
  if (oneOf !== undefined)
    checks.push(oneOf.includes(undefined) ? undefined : oneOf.filter((accepts) => accepts).length === 1);
  const allOf = branches('allOf');
  if (allOf !== undefined) checks.push(allOf.includes(false) ? false : allOf.includes(undefined) ? undefined : true);
  if (checks.includes(false)) return false;
  return checks.includes(undefined) ? undefined : true;
}

export function pick(node: JsonObject, keep: (key: string) => boolean): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (keep(key)) result[key] = value;
  return result;
}
