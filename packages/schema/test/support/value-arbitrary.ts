import type { JsonObject, JsonValue } from '@toolcircuit/core';
import fc from 'fast-check';
import { isObject, resolve } from './json-pointer.js';

/**
 * Candidate values for a (normalized) JSON Schema. Not exact: the property tests keep only candidates the
 * ORIGINAL accepts (ajv), so this only has to hit valid values often. `extraKeys` adds keys beyond the declared
 * properties: `all` to every object that does not refuse them; `declared` only where the schema declares them
 * (`additionalProperties: true` or a schema, keys matching `patternProperties`), not where it merely omits
 * `additionalProperties` (those keys are no declared input); `none` never.
 */
export interface ValueOptions {
  readonly extraKeys: 'all' | 'declared' | 'none';
  /** How many `$ref` hops a value may still take (recursive schemas terminate by emptying arrays). */
  readonly refBudget: number;
}

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

export function valueArbitrary(root: JsonObject, options: ValueOptions): fc.Arbitrary<unknown> {
  return arbitraryFor(root, root, options.refBudget, options, true).map(plainJson);
}

/** JSON round trip: no -0, no undefined, own data properties only (what a provider would send). */
function plainJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** `atRoot`: the tool's arguments themselves, where an object without properties declares no parameters. */
function arbitraryFor(
  node: JsonValue,
  root: JsonObject,
  budget: number,
  options: ValueOptions,
  atRoot = false,
): fc.Arbitrary<unknown> {
  // Arguments a schema says nothing about are a tool without parameters, unless undeclared keys count.
  const free = atRoot && options.extraKeys !== 'all' ? fc.constant({}) : anyJson;
  if (
    node === true ||
    (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length === 0)
  ) {
    return free;
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return free;
  if (typeof node.$ref === 'string') {
    const target = resolve(root, node.$ref);
    if (target === undefined || budget <= 0) return anyJson;
    return arbitraryFor(target, root, budget - 1, options, atRoot);
  }
  if (Array.isArray(node.allOf)) {
    let merged: JsonObject = { ...node, allOf: [] };
    delete merged.allOf;
    for (const member of node.allOf) if (isObject(member)) merged = { ...member, ...merged };
    return arbitraryFor(merged, root, budget, options, atRoot);
  }
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union !== undefined) {
    const { anyOf: _a, oneOf: _o, ...rest } = node;
    const branches = union.map((branch) =>
      arbitraryFor(isObject(branch) ? { ...rest, ...branch } : branch, root, budget, options, atRoot),
    );
    return branches.length === 0 ? anyJson : fc.oneof(...branches);
  }
  if (Array.isArray(node.enum) && node.enum.length > 0) return fc.constantFrom(...node.enum);
  if (node.const !== undefined) return fc.constant(node.const);
  const types =
    typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : inferred(node);
  if (types === undefined) return free;
  const arbitraries = types.map((type) => forType(node, type, root, budget, options, atRoot));
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
  atRoot: boolean,
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
      return objectArbitrary(node, root, budget, options, atRoot);
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
  atRoot: boolean,
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
  const additional = node.additionalProperties;
  const open = additional !== false && node.patternProperties === undefined;
  const extraValues = isObject(additional) ? arbitraryFor(additional, root, budget, options) : anyJson;
  // Keys the schema lets in: any (an open object) and those matching its patterns.
  const extraKinds: fc.Arbitrary<Record<string, unknown>>[] = [];
  const declaresOpen = additional !== undefined && additional !== false;
  if (open && (options.extraKeys === 'all' || (options.extraKeys === 'declared' && declaresOpen))) {
    extraKinds.push(
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !names.includes(key)),
        extraValues,
        { maxKeys: names.length === 0 ? 3 : 2 },
      ),
    );
  }
  if (options.extraKeys !== 'none') extraKinds.push(...patternKeys(node, names, root, budget, options));
  if (names.length === 0 && open && extraKinds.length === 0 && !atRoot) {
    // A free-form object (no properties) inside the arguments: its keys are its content, whatever the mode;
    // the arguments themselves without properties are a tool that declares no parameters.
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), extraValues, { maxKeys: 3 });
  }
  if (extraKinds.length === 0) return declared;
  return fc
    .tuple(declared, fc.oneof(...extraKinds))
    .map(([values, more]) => ({ ...more, ...values }) as Record<string, unknown>);
}

/** Up to two keys matching each `patternProperties` pattern (that fast-check can generate), with their values. */
function patternKeys(
  node: JsonObject,
  names: readonly string[],
  root: JsonObject,
  budget: number,
  options: ValueOptions,
): fc.Arbitrary<Record<string, unknown>>[] {
  if (!isObject(node.patternProperties)) return [];
  const kinds: fc.Arbitrary<Record<string, unknown>>[] = [];
  for (const [pattern, schema] of Object.entries(node.patternProperties)) {
    let keys: fc.Arbitrary<string>;
    try {
      keys = fc.stringMatching(new RegExp(pattern, 'u'));
    } catch {
      continue;
    }
    kinds.push(
      fc.dictionary(
        keys.filter((key) => key.length > 0 && key.length < 20 && !names.includes(key)),
        arbitraryFor(schema, root, budget, options),
        { maxKeys: 2 },
      ),
    );
  }
  return kinds;
}
