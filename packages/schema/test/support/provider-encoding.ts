import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { RECURSION_UNROLL_DEPTH, type SchemaTarget } from '../../src/index.js';
import { compile } from './ajv.js';
import { isObject, resolve } from './json-pointer.js';

/**
 * What a model that follows the TRANSLATED schema sends for a value valid under the original, written
 * from the package's documented rules (README "What the model sends"), not from the translator's code:
 * - openai-strict: every optional property the value omits is sent as `null`, except one that accepts null
 *   and declares a default the original accepts (not at the top of a root union): that one is sent as its
 *   default, and a null sent for it stays null;
 * - gemini and openai-strict: any-JSON values and objects without declared properties travel as JSON
 *   text (inside `{ "json": ... }` when another branch of the same anyOf is a string);
 * - gemini: a recursive schema is described RECURSION_UNROLL_DEPTH levels deep, deeper values as JSON text.
 * Also returns what restoring gives back by those rules (`restored`): the value itself, except that in strict
 * mode an optional property whose value is null comes back omitted (strict cannot tell "null" from "omitted"),
 * and a property sent as its default comes back as that default. And what it must give back for no input to
 * be lost (`meant`): the value, with only the defaults filled in (omitting a property and sending its declared
 * default are the same input).
 */
export function encodeForProvider(
  root: JsonObject,
  value: unknown,
  target: SchemaTarget,
): { sent: unknown; restored: unknown; meant: unknown } {
  const encoder = new Encoder(root, target);
  const encoded = encoder.encode(root, '', value, new Map());
  const merged = rootUnionKeys(root);
  if (merged === undefined || target !== 'openai-strict' || !isObject(encoded.sent) || !isObject(encoded.restored))
    return encoded;
  // README: a root union is sent as ONE object with every variant's properties, required only where every
  // variant requires them; strict sends null for each property the value leaves out, null meaning "omitted".
  const sent: JsonObject = { ...encoded.sent } as JsonObject;
  for (const name of merged.names) if (!Object.hasOwn(sent, name)) sent[name] = null;
  const restored = Object.fromEntries(
    Object.entries(encoded.restored).filter(([key]) => !(sent[key] === null && !merged.required.has(key))),
  );
  return { sent, restored, meant: encoded.meant };
}

/** The property names of a root anyOf/oneOf's variants (nested unions flattened) and the ones all require. */
function rootUnionKeys(root: JsonObject): { names: Set<string>; required: Set<string> } | undefined {
  const keyword = Array.isArray(root.anyOf) ? 'anyOf' : Array.isArray(root.oneOf) ? 'oneOf' : undefined;
  if (keyword === undefined) return undefined;
  const names = new Set<string>(isObject(root.properties) ? Object.keys(root.properties) : []);
  let required: Set<string> | undefined;
  const visit = (member: JsonValue): void => {
    const schema = isObject(member) && typeof member.$ref === 'string' ? resolve(root, member.$ref) : member;
    if (!isObject(schema)) return;
    const types =
      typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
    if (types !== undefined && !types.includes('object')) return;
    const inner = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (inner !== undefined) {
      const { anyOf: _anyOf, oneOf: _oneOf, ...shared } = schema;
      for (const branch of inner) visit(isObject(branch) ? { ...shared, ...branch } : branch);
      return;
    }
    const own = Array.isArray(schema.required)
      ? schema.required.filter((name): name is string => typeof name === 'string')
      : [];
    for (const name of [...(isObject(schema.properties) ? Object.keys(schema.properties) : []), ...own])
      names.add(name);
    required = required === undefined ? new Set(own) : new Set([...required].filter((name) => own.includes(name)));
  };
  for (const member of root[keyword] as JsonValue[]) visit(member);
  const shared = Array.isArray(root.required)
    ? root.required.filter((name): name is string => typeof name === 'string')
    : [];
  return { names, required: new Set([...shared, ...(required ?? [])]) };
}

interface Encoded {
  sent: unknown;
  restored: unknown;
  meant: unknown;
}

/** The value travels as it is and comes back as it is. */
function unchanged(value: unknown): Encoded {
  return { sent: value, restored: value, meant: value };
}

class Encoder {
  readonly #root: JsonObject;
  readonly #target: SchemaTarget;
  readonly #jsonText: boolean;
  readonly #strict: boolean;
  readonly #rootUnion: boolean;
  #rootEntered = false;

  constructor(root: JsonObject, target: SchemaTarget) {
    this.#root = root;
    this.#rootUnion = Array.isArray(root.anyOf) || Array.isArray(root.oneOf);
    this.#target = target;
    this.#jsonText = target === 'gemini' || target === 'openai-strict';
    this.#strict = target === 'openai-strict';
  }

  encode(node: JsonValue, pointer: string, value: unknown, entered: Map<string, number>): Encoded {
    const same = unchanged(value);
    if (node === true) return this.#free(value);
    if (!isObject(node)) return same;
    if (typeof node.$ref === 'string') {
      const targetPointer = node.$ref === '#' ? '' : node.$ref.slice(1);
      const target = resolve(this.#root, node.$ref);
      if (target === undefined) return same;
      const { $ref: _ref, ...siblings } = node;
      const merged =
        isObject(target) && Object.keys(siblings).some((key) => !ANNOTATIONS.has(key))
          ? { ...target, ...siblings }
          : target;
      return this.#enter(merged, targetPointer, value, entered);
    }
    return this.#enter(node, pointer, value, entered);
  }

  #enter(node: JsonValue, pointer: string, value: unknown, entered: Map<string, number>): Encoded {
    const count = entered.get(pointer) ?? 0;
    if (this.#target === 'gemini' && count >= RECURSION_UNROLL_DEPTH)
      return { sent: JSON.stringify(value), restored: value, meant: value };
    const inner = new Map(entered);
    inner.set(pointer, count + 1);
    return this.#body(node, pointer, value, inner);
  }

  #body(node: JsonValue, pointer: string, value: unknown, entered: Map<string, number>): Encoded {
    if (node === true) return this.#free(value);
    if (!isObject(node)) return unchanged(value);
    if (Object.keys(node).filter((key) => !ANNOTATIONS.has(key) && key !== '$schema' && key !== '$defs').length === 0) {
      // README: the root is always an object; one without properties is a tool without parameters.
      return pointer === '' ? unchanged(value) : this.#free(value);
    }
    if (typeof node.$ref === 'string') return this.encode(node, pointer, value, entered);
    if (Array.isArray(node.allOf)) {
      let merged: JsonObject = { ...node };
      delete merged.allOf;
      for (const member of node.allOf) {
        const resolved =
          isObject(member) && typeof member.$ref === 'string' ? resolve(this.#root, member.$ref) : member;
        if (isObject(resolved)) merged = mergeShallow(merged, resolved);
      }
      return this.#body(merged, pointer, value, entered);
    }
    const union = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
    if (union !== undefined) return this.#union(node, union, pointer, value, entered);
    if (node.enum !== undefined || node.const !== undefined) return unchanged(value);
    const types =
      typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : inferTypes(node);
    if (types === undefined) return this.#free(value);
    if (value === null) return unchanged(null);
    if (Array.isArray(value) && types.includes('array')) return this.#array(node, pointer, value, entered);
    if (isObject(value) && types.includes('object')) return this.#object(node, pointer, value, entered);
    return unchanged(value);
  }

  #union(
    node: JsonObject,
    keyword: 'anyOf' | 'oneOf',
    pointer: string,
    value: unknown,
    entered: Map<string, number>,
  ): Encoded {
    const { anyOf: _a, oneOf: _o, ...rest } = node;
    const shared = Object.fromEntries(
      Object.entries(rest).filter(([key]) => !ANNOTATIONS.has(key) && key !== '$defs' && key !== '$schema'),
    );
    const branches = (node[keyword] as JsonValue[])
      .map((branch, index) => ({
        schema: isObject(branch) ? { ...branch, ...shared } : branch,
        pointer: `${pointer}/${keyword}/${index}`,
      }))
      .filter((branch) => !matchesNothing(branch.schema) && !isNullOnly(branch.schema));
    if (value === null) return unchanged(null);
    const chosen = branches.find((branch) => this.#accepts(branch.schema, value));
    if (chosen === undefined) return unchanged(value);
    const encoded = this.encode(chosen.schema, chosen.pointer, value, entered);
    const stringBranches = branches.filter((branch) => this.#providerString(branch.schema)).length;
    if (this.#jsonText && this.#isFree(chosen.schema) && stringBranches > 1) {
      return { ...encoded, sent: { json: encoded.sent } };
    }
    return encoded;
  }

  #object(node: JsonObject, pointer: string, value: JsonObject, entered: Map<string, number>): Encoded {
    // The first object encoded is the root (children are encoded after it is entered).
    const atRoot = !this.#rootEntered;
    this.#rootEntered = true;
    const properties = isObject(node.properties) ? { ...node.properties } : {};
    const required = Array.isArray(node.required)
      ? node.required.filter((name): name is string => typeof name === 'string')
      : [];
    for (const name of required) if (properties[name] === undefined) properties[name] = true;
    if (Object.keys(properties).length === 0) {
      if (this.#strict && node.additionalProperties === false) return unchanged(value);
      if (this.#jsonText && pointer !== '') return { sent: JSON.stringify(value), restored: value, meant: value };
      return unchanged(value);
    }
    // README: a root union's variants are merged into one object, where null always means "omitted".
    const standIn = (name: string): { value: JsonValue } | undefined =>
      this.#strict && !required.includes(name) && !(atRoot && this.#rootUnion)
        ? this.#defaultStandIn(properties[name] ?? true)
        : undefined;
    const sent: [string, unknown][] = [];
    const restored: [string, unknown][] = [];
    const meant: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      const schema = properties[key];
      if (schema === undefined) {
        sent.push([key, item]);
        restored.push([key, item]);
        meant.push([key, item]);
        continue;
      }
      const encoded = this.encode(schema, `${pointer}/properties/${escapeToken(key)}`, item, entered);
      sent.push([key, encoded.sent]);
      meant.push([key, encoded.meant]);
      // A null SENT for an optional property reads as "omitted" (JSON text "null" is a value), unless the
      // property's default is what stands for "omitted".
      const omitted = this.#strict && encoded.sent === null && !required.includes(key) && standIn(key) === undefined;
      if (!omitted) restored.push([key, encoded.restored]);
    }
    if (this.#strict) {
      for (const name of Object.keys(properties)) {
        if (Object.hasOwn(value, name)) continue;
        const stand = standIn(name);
        if (stand === undefined) {
          sent.push([name, null]);
          continue;
        }
        const encoded = this.encode(
          properties[name] ?? true,
          `${pointer}/properties/${escapeToken(name)}`,
          stand.value,
          entered,
        );
        sent.push([name, encoded.sent]);
        restored.push([name, encoded.restored]);
        meant.push([name, encoded.meant]);
      }
    }
    return { sent: Object.fromEntries(sent), restored: Object.fromEntries(restored), meant: Object.fromEntries(meant) };
  }

  /** README: an optional property that accepts null and declares a default it accepts is sent as that default. */
  #defaultStandIn(schema: JsonValue): { value: JsonValue } | undefined {
    const resolved =
      isObject(schema) && typeof schema.$ref === 'string'
        ? { ...(resolve(this.#root, schema.$ref) as JsonObject | undefined), ...schema }
        : schema;
    if (!isObject(resolved) || !Object.hasOwn(resolved, 'default')) return undefined;
    const value = resolved.default as JsonValue;
    return this.#accepts(schema, null) && this.#accepts(schema, value) ? { value } : undefined;
  }

  #array(node: JsonObject, pointer: string, value: unknown[], entered: Map<string, number>): Encoded {
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    // Where tuples are not expressible (gemini, strict) the provider sees `items: anyOf` of the positions,
    // so an element is sent as that union's branch would take it.
    const maxItems = typeof node.maxItems === 'number' ? node.maxItems : undefined;
    const restAllowed =
      node.items !== undefined ? node.items !== false : maxItems === undefined || maxItems > prefix.length;
    const union = restAllowed ? [...prefix, node.items ?? true] : prefix;
    const members = [...new Map(union.map((member) => [JSON.stringify(member), member])).values()];
    const strings = members.filter((member) => this.#providerString(member)).length;
    const encoded: Encoded[] = value.map((item, index) => {
      const position = prefix[index];
      const schema = position ?? node.items ?? true;
      const result =
        position !== undefined
          ? this.encode(position, `${pointer}/prefixItems/${index}`, item, entered)
          : node.items === undefined
            ? this.#free(item)
            : this.encode(node.items, `${pointer}/items`, item, entered);
      const tupleUnion = prefix.length > 0 && this.#jsonText;
      return tupleUnion && this.#isFree(schema) && strings > 1 ? { ...result, sent: { json: result.sent } } : result;
    });
    return {
      sent: encoded.map((item) => item.sent),
      restored: encoded.map((item) => item.restored),
      meant: encoded.map((item) => item.meant),
    };
  }

  #free(value: unknown): Encoded {
    return this.#jsonText ? { sent: JSON.stringify(value), restored: value, meant: value } : unchanged(value);
  }

  /** Whether the branch, as sent, is a string: a string type or a JSON-text value. */
  #providerString(schema: JsonValue): boolean {
    if (this.#isFree(schema)) return this.#jsonText;
    if (!isObject(schema)) return false;
    const resolved = typeof schema.$ref === 'string' ? resolve(this.#root, schema.$ref) : schema;
    if (!isObject(resolved)) return false;
    const union = Array.isArray(resolved.anyOf)
      ? resolved.anyOf
      : Array.isArray(resolved.oneOf)
        ? resolved.oneOf
        : undefined;
    if (union !== undefined) return union.some((branch) => this.#providerString(branch));
    const values = Array.isArray(resolved.enum) ? resolved.enum : resolved.const !== undefined ? [resolved.const] : [];
    const types =
      typeof resolved.type === 'string'
        ? [resolved.type]
        : Array.isArray(resolved.type)
          ? resolved.type
          : values.length > 0
            ? values.map((value) => (typeof value === 'string' ? 'string' : 'other'))
            : (inferTypes(resolved) ?? []);
    return types.includes('string');
  }

  #isFree(schema: JsonValue): boolean {
    if (schema === true) return true;
    if (!isObject(schema)) return false;
    const resolved = typeof schema.$ref === 'string' ? resolve(this.#root, schema.$ref) : schema;
    if (!isObject(resolved)) return false;
    const meaningful = Object.keys(resolved).filter((key) => !ANNOTATIONS.has(key));
    if (meaningful.length === 0) return true;
    const types =
      typeof resolved.type === 'string' ? [resolved.type] : Array.isArray(resolved.type) ? resolved.type : [];
    const objectOnly =
      types.filter((type) => type !== 'null').every((type) => type === 'object') && types.includes('object');
    const properties = isObject(resolved.properties) ? Object.keys(resolved.properties) : [];
    if (!objectOnly || properties.length > 0) return false;
    return !(this.#strict && resolved.additionalProperties === false);
  }

  #accepts(schema: JsonValue, value: unknown): boolean {
    if (!isObject(schema)) return schema !== false;
    const context: JsonObject = { ...schema };
    if (this.#root.$defs !== undefined) context.$defs = this.#root.$defs;
    if (this.#root.definitions !== undefined) context.definitions = this.#root.definitions;
    try {
      return compile(context)(value);
    } catch {
      return false;
    }
  }
}

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$comment']);

/** README: a node without `type` is read from its keywords (properties ⇒ object, items ⇒ array…). */
function inferTypes(node: JsonObject): string[] | undefined {
  const has = (keywords: readonly string[]): boolean => keywords.some((keyword) => node[keyword] !== undefined);
  if (has(['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties']))
    return ['object'];
  if (has(['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems'])) return ['array'];
  if (has(['minLength', 'maxLength', 'pattern', 'format'])) return ['string'];
  if (has(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])) return ['number'];
  return undefined;
}

function matchesNothing(schema: JsonValue): boolean {
  return schema === false || (isObject(schema) && isObject(schema.not) && Object.keys(schema.not).length === 0);
}

function isNullOnly(schema: JsonValue): boolean {
  return isObject(schema) && (schema.type === 'null' || (schema.const === null && schema.type === undefined));
}

function mergeShallow(first: JsonObject, second: JsonObject): JsonObject {
  const result: JsonObject = { ...second, ...first };
  if (isObject(first.properties) && isObject(second.properties))
    result.properties = { ...second.properties, ...first.properties };
  if (Array.isArray(first.required) && Array.isArray(second.required))
    result.required = [...new Set([...first.required, ...second.required])];
  return result;
}

function escapeToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
