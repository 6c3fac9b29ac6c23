import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { appendPointer } from '../json-pointer.js';
import { isJsonObject, jsonEquals } from '../json-utils.js';
import { typeList } from './schema-shape.js';

/** One schema a merged root property must accept, at its real place in the original. */
export interface PropertySource {
  readonly value: JsonValue;
  readonly pointer: string;
}

/** A root union read as one object that accepts what any variant accepts. */
export interface MergedRootUnion {
  /** `type: object`, the root's own keywords, `required` = what every variant requires. */
  readonly node: JsonObject;
  /** Per property, the schemas it must accept: one per variant that declares it (or lets it in as an extra key). */
  readonly sources: ReadonlyMap<string, readonly PropertySource[]>;
  /** Variants that can never be tool arguments (not objects); logged by the walker. */
  readonly skipped: readonly string[];
  /**
   * Some variant DECLARES keys beyond its properties (`additionalProperties: true` or a schema,
   * `patternProperties`), as opposed to merely omitting `additionalProperties`: the merged root is open
   * either way, but only then is closing it a narrowing of declared inputs.
   */
  readonly declaredOpen: boolean;
}

interface Variant {
  readonly schema: JsonObject;
  readonly pointer: string;
}

/**
 * Providers want one object at the root, so a root `anyOf`/`oneOf` becomes the smallest single object that
 * still accepts every variant: a property any variant declares accepts the union of what the variants
 * declare for it (and anything, when a variant that does not declare it is open to extra keys); only keys
 * every variant requires stay required; extra keys are allowed when any variant allows them. The result is
 * looser than the union, never narrower, and the executor validates the original, so it stays sound.
 */
export function mergeRootUnion(
  node: JsonObject,
  keyword: 'anyOf' | 'oneOf',
  dereference: (member: JsonValue, pointer: string) => JsonObject,
): MergedRootUnion {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
  const variants: Variant[] = [];
  const skipped: string[] = [];
  const raw = Array.isArray(node[keyword]) ? (node[keyword] as JsonValue[]) : [];
  const collect = (member: JsonValue, pointer: string): void => {
    if (member === false) return;
    const schema = member === true ? {} : dereference(member, pointer);
    const types = typeList(schema.type);
    if (types !== undefined && !types.includes('object')) {
      skipped.push(pointer);
      return;
    }
    // A variant that is itself a union contributes its own variants (its other keywords apply to each).
    const inner = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
    if (inner !== undefined) {
      const { anyOf: _a, oneOf: _o, ...shared } = schema;
      (schema[inner] as JsonValue[]).forEach((branch, index) => {
        const branchPointer = appendPointer(pointer, inner, index);
        const resolved = branch === true ? {} : isJsonObject(branch) ? dereference(branch, branchPointer) : undefined;
        if (resolved !== undefined) collect({ ...shared, ...resolved }, branchPointer);
      });
      return;
    }
    variants.push({ schema, pointer });
  };
  raw.forEach((member, index) => {
    collect(member, appendPointer('', keyword, index));
  });

  const own = isJsonObject(rest.properties) ? rest.properties : {};
  const names: string[] = Object.keys(own);
  const add = (name: string): void => {
    if (!names.includes(name)) names.push(name);
  };
  for (const variant of variants) {
    for (const name of Object.keys(propertiesOf(variant.schema))) add(name);
    for (const name of requiredOf(variant.schema)) add(name);
  }

  const sources = new Map<string, PropertySource[]>();
  for (const name of names) {
    if (Object.hasOwn(own, name)) {
      // The root's own declaration applies to every variant; alone it is looser than the conjunction.
      sources.set(name, [{ value: own[name] ?? true, pointer: appendPointer('', 'properties', name) }]);
      continue;
    }
    const list: PropertySource[] = [];
    for (const variant of variants) {
      const declared = propertiesOf(variant.schema);
      const source: PropertySource | undefined = Object.hasOwn(declared, name)
        ? { value: declared[name] ?? true, pointer: appendPointer(variant.pointer, 'properties', name) }
        : extraKeys(variant);
      if (source !== undefined && !list.some((other) => jsonEquals(other.value, source.value))) list.push(source);
    }
    if (list.length > 0) sources.set(name, list);
  }

  let required: string[] | undefined;
  for (const variant of variants) {
    const mine = requiredOf(variant.schema);
    required = required === undefined ? mine : required.filter((name) => mine.includes(name));
  }
  const shared = requiredOf(rest);
  const merged: JsonObject = {
    ...rest,
    type: 'object',
    properties: Object.fromEntries([...sources.keys()].map((name) => [name, true])),
    required: [...new Set([...shared, ...(required ?? [])])].filter((name) => sources.has(name)),
  };
  const closed = variants.length > 0 && variants.every((variant) => extraKeys(variant) === undefined);
  if (closed) merged.additionalProperties = false;
  else delete merged.additionalProperties;
  delete merged.patternProperties;
  const declaredOpen = [...variants, { schema: rest, pointer: '' }].some(
    (variant) =>
      variant.schema.patternProperties !== undefined ||
      (variant.schema.additionalProperties !== undefined && variant.schema.additionalProperties !== false),
  );
  return { node: merged, sources, skipped, declaredOpen };
}

function propertiesOf(schema: JsonObject): JsonObject {
  return isJsonObject(schema.properties) ? schema.properties : {};
}

function requiredOf(schema: JsonObject): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}

/** What a variant accepts for a key it does not declare, or undefined when it accepts no extra key. */
function extraKeys(variant: Variant): PropertySource | undefined {
  const { schema, pointer } = variant;
  if (schema.patternProperties !== undefined) return { value: true, pointer };
  const additional = schema.additionalProperties;
  if (additional === false) return undefined;
  if (additional === undefined || additional === true) return { value: true, pointer };
  return { value: additional, pointer: appendPointer(pointer, 'additionalProperties') };
}
