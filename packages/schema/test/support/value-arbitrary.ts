import type { JsonObject, JsonValue } from '@toolcircuit/core';
import fc from 'fast-check';
import { isObject, resolve } from './json-pointer.js';

/**
 * Candidate values for a (normalized) JSON Schema. Not exact: the property tests keep only candidates the
 * ORIGINAL accepts (ajv), so this only has to hit valid values often. `extraKeys` adds undeclared keys to
 * open objects (for the targets that keep objects open).
 */
export interface ValueOptions {
  readonly extraKeys: boolean;
  /** How many `$ref` hops a value may still take (recursive schemas terminate by emptying arrays). */
  readonly refBudget: number;
}

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

export function valueArbitrary(root: JsonObject, options: ValueOptions): fc.Arbitrary<unknown> {
  return arbitraryFor(root, root, options.refBudget, options).map(plainJson);
}

/** JSON round trip: no -0, no undefined, own data properties only (what a provider would send). */
function plainJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function arbitraryFor(node: JsonValue, root: JsonObject, budget: number, options: ValueOptions): fc.Arbitrary<unknown> {
  if (
    node === true ||
    (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length === 0)
  ) {
    return anyJson;
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return anyJson;
  if (typeof node.$ref === 'string') {
    const target = resolve(root, node.$ref);
    if (target === undefined || budget <= 0) return anyJson;
    return arbitraryFor(target, root, budget - 1, options);
  }
  if (Array.isArray(node.allOf)) {
    let merged: JsonObject = { ...node, allOf: [] };
    delete merged.allOf;
    for (const member of node.allOf) if (isObject(member)) merged = { ...member, ...merged };
    return arbitraryFor(merged, root, budget, options);
  }
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union !== undefined) {
    const { anyOf: _a, oneOf: _o, ...rest } = node;
    const branches = union.map((branch) =>
      arbitraryFor(isObject(branch) ? { ...rest, ...branch } : branch, root, budget, options),
    );
    return branches.length === 0 ? anyJson : fc.oneof(...branches);
  }
  if (Array.isArray(node.enum) && node.enum.length > 0) return fc.constantFrom(...node.enum);
  if (node.const !== undefined) return fc.constant(node.const);
  const types =
    typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : inferred(node);
  if (types === undefined) return anyJson;
  const arbitraries = types.map((type) => forType(node, type, root, budget, options));
  return arbitraries.length === 1 && arbitraries[0] !== undefined ? arbitraries[0] : fc.oneof(...arbitraries);
}

function inferred(node: JsonObject): string[] | undefined {
  if (node.properties !== undefined || node.required !== undefined || node.additionalProperties !== undefined)
    return ['object'];
  if (node.items !== undefined || node.prefixItems !== undefined) return ['array'];
  return undefined;
}

function forType(
  node: JsonObject,
  type: string,
  root: JsonObject,
  budget: number,
  options: ValueOptions,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = bound(node.minimum, node.exclusiveMinimum, 1) ?? -1000;
      const max = bound(node.maximum, node.exclusiveMaximum, -1) ?? 1000;
      return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
    }
    case 'number': {
      const min = bound(node.minimum, node.exclusiveMinimum, 0.001) ?? -1000;
      const max = bound(node.maximum, node.exclusiveMaximum, -0.001) ?? 1000;
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) }),
        fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true }),
      );
    }
    case 'string':
      return stringArbitrary(node);
    case 'array':
      return arrayArbitrary(node, root, budget, options);
    case 'object':
      return objectArbitrary(node, root, budget, options);
    default:
      return anyJson;
  }
}

function bound(inclusive: JsonValue | undefined, exclusive: JsonValue | undefined, step: number): number | undefined {
  if (typeof exclusive === 'number') return exclusive + step;
  return typeof inclusive === 'number' ? inclusive : undefined;
}

function stringArbitrary(node: JsonObject): fc.Arbitrary<string> {
  switch (node.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'uri':
      return fc.webUrl();
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'json':
      return fc.json();
    default:
      break;
  }
  if (typeof node.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(node.pattern, 'u'));
    } catch {
      return fc.string();
    }
  }
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : minLength + 12;
  return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 12) });
}

function arrayArbitrary(
  node: JsonObject,
  root: JsonObject,
  budget: number,
  options: ValueOptions,
): fc.Arbitrary<unknown[]> {
  const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
  const maxItems = typeof node.maxItems === 'number' ? node.maxItems : minItems + 3;
  const cap = Math.min(maxItems, minItems + 3);
  if (Array.isArray(node.prefixItems)) {
    const positions = node.prefixItems.map((item) => arbitraryFor(item, root, budget, options));
    return fc.tuple(...positions);
  }
  // Recursion ends where the budget does: no more nested elements.
  if (budget <= 0 && minItems === 0) return fc.constant([]);
  const items = node.items === undefined ? anyJson : arbitraryFor(node.items, root, budget, options);
  return fc.array(items, { minLength: minItems, maxLength: Math.max(minItems, cap) });
}

function objectArbitrary(
  node: JsonObject,
  root: JsonObject,
  budget: number,
  options: ValueOptions,
): fc.Arbitrary<unknown> {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required)
    ? node.required.filter((name): name is string => typeof name === 'string')
    : [];
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(properties)) shape[name] = arbitraryFor(schema, root, budget, options);
  for (const name of required) if (shape[name] === undefined) shape[name] = anyJson;
  const names = Object.keys(shape);
  const declared = fc.record(shape, { requiredKeys: required.filter((name) => names.includes(name)) });
  const open = node.additionalProperties !== false && node.patternProperties === undefined;
  const extraValues = isObject(node.additionalProperties)
    ? arbitraryFor(node.additionalProperties, root, budget, options)
    : anyJson;
  if (names.length === 0 && open) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), extraValues, { maxKeys: 3 });
  }
  if (!open || !options.extraKeys) return declared;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !names.includes(key)),
    extraValues,
    { maxKeys: 2 },
  );
  return fc.tuple(declared, extras).map(([values, more]) => ({ ...more, ...values }));
}
