import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { ChangeLog } from '../change-log.js';
import { type SchemaRefusalReason, SchemaTranslationError } from '../errors/schema-translation-error.js';
import { appendPointer, resolveLocalRef } from '../json-pointer.js';
import { describeJson, isJsonObject, jsonEquals, jsonTypeOf } from '../json-utils.js';
import type { OriginalValidator } from '../restore/original-validator.js';
import type { SchemaChangeKind } from '../schema-change.js';
import { findRecursiveRefs } from './find-recursive-refs.js';
import { mergeRootUnion, type PropertySource } from './merge-root-union.js';
import { mergeSchemas } from './merge-schemas.js';
import { RECURSION_UNROLL_DEPTH } from './recursion-unroll-depth.js';
import { type BranchPlan, type PropertyPlan, type RestorePlan, SAME } from './restore-plan.js';
import { acceptsNull, inferTypes, isNullOnly, matchesNothing, outputTypes, pick, typeList } from './schema-shape.js';
import type { TargetProfile } from './target-profile.js';

export interface Emitted {
  readonly schema: JsonObject;
  readonly plan: RestorePlan;
  /** The original schema this was translated from, when it is one branch of a union (to restore by validation). */
  readonly source?: PropertySource;
  /** Accepts only null (Gemini spells that as a nullable string); in an anyOf it becomes `nullable`. */
  readonly nullOnly?: boolean;
}

export interface WalkedRoot extends Emitted {
  readonly omitParameters: boolean;
}

/** Keywords describing a value rather than constraining it. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  'description',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Keywords removed without a trace in the description: they mean nothing to a model. */
const DROPPED: ReadonlyMap<string, string> = new Map([
  ['$schema', 'dialect marker; the provider has its own'],
  ['$id', 'identifier; references are resolved before sending'],
  ['$comment', 'comment for schema authors'],
  ['$anchor', 'anchor; references are resolved before sending'],
  ['$defs', 'definitions are inlined where they are used'],
  ['definitions', 'definitions are inlined where they are used'],
]);

const ANY_TYPES: JsonValue = ['string', 'number', 'boolean', 'object', 'array', 'null'];

type FreeFormKind = 'any' | 'object' | 'empty-object' | 'recursion';

interface Typed {
  readonly schema: JsonObject;
  readonly plan: RestorePlan;
  readonly consumed: ReadonlySet<string>;
  readonly notes: readonly string[];
}

/**
 * Walks one normalized schema and emits its translation for one profile, with the plan that maps
 * provider-side values back. Every decision that loosens or reshapes the schema is logged.
 */
export class SchemaWalker {
  readonly #root: JsonObject;
  readonly #profile: TargetProfile;
  readonly #changes: ChangeLog;
  readonly #originalPath: (path: string) => string;
  readonly #toolName: string | undefined;
  readonly #validator: OriginalValidator;
  readonly #recursive: ReadonlySet<string>;
  /** Keys an object leaves open by omitting `additionalProperties` count as inputs (`TranslateOptions`). */
  readonly #keepUndeclaredKeys: boolean;
  readonly #defs = new Map<string, { name: string; schema: JsonObject | undefined; plan: RestorePlan | undefined }>();
  readonly #defNames = new Set<string>();
  readonly #expanding = new Map<string, number>();
  #rootPlan: RestorePlan = SAME;
  /** Set when the root was a union: what each merged root property must accept, at its real pointers. */
  #rootSources: ReadonlyMap<string, readonly PropertySource[]> | undefined;
  /** Set when the root was a union some variant of which declares open keys (see `MergedRootUnion`). */
  #rootDeclaredOpen = false;

  constructor(init: {
    root: JsonObject;
    profile: TargetProfile;
    changes: ChangeLog;
    originalPath: (path: string) => string;
    toolName: string | undefined;
    validator: OriginalValidator;
    keepUndeclaredKeys: boolean;
  }) {
    this.#validator = init.validator;
    this.#keepUndeclaredKeys = init.keepUndeclaredKeys;
    this.#root = init.root;
    this.#profile = init.profile;
    this.#changes = init.changes;
    this.#originalPath = init.originalPath;
    this.#toolName = init.toolName;
    this.#recursive = findRecursiveRefs(init.root);
  }

  walkRoot(): WalkedRoot {
    let node = this.#root;
    if (typeof node.$ref === 'string') {
      const target = this.#resolve(node.$ref, '');
      const { $ref: _ref, ...siblings } = node;
      node = mergeSchemas(siblings, isJsonObject(target.value) ? target.value : {});
      this.#log('/$ref', 'inlined-ref', `root reference ${describeJson(_ref ?? null)} inlined`, '$ref');
    }
    if (Array.isArray(node.allOf)) node = this.#mergeAllOf(node, '');
    if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) node = this.#mergeRootUnion(node);
    else this.#rootSources = undefined;
    node = this.#rootAsObject(node);

    const properties = isJsonObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    if (Object.keys(properties).length === 0 && required.length === 0) return this.#rootWithoutParameters(node);

    // The root is never a $defs entry, even when recursion comes back to it: references become `#`.
    const emitted = this.#translate(node, '', true);
    this.#rootPlan = emitted.plan;
    const schema: JsonObject = { ...emitted.schema };
    if (this.#defs.size > 0) {
      const defs: JsonObject = {};
      for (const entry of this.#defs.values()) if (entry.schema !== undefined) defs[entry.name] = entry.schema;
      schema.$defs = defs;
    }
    return { schema, plan: emitted.plan, omitParameters: false };
  }

  // ── nodes ────────────────────────────────────────────────────────────────────────────────────────

  #translate(node: JsonValue, pointer: string, asDefinition = false): Emitted {
    if (typeof node === 'boolean') {
      if (!node) this.#log(pointer, 'rewritten', '`false` (nothing valid) declared as any value', undefined);
      return this.#freeForm(pointer, 'any', {});
    }
    if (!isJsonObject(node))
      this.#refuse('invalid_schema', pointer, `expected a schema object, got ${describeJson(node)}`);
    if (!this.#recursive.has(pointer)) return this.#body(node, pointer);
    if (this.#profile.recursion === 'defs') {
      return asDefinition ? this.#body(node, pointer) : this.#refToDefinition(node, pointer);
    }
    const depth = this.#expanding.get(pointer) ?? 0;
    if (depth >= RECURSION_UNROLL_DEPTH) {
      this.#log(
        pointer,
        'recursion-bounded',
        `recursive schema unrolled ${RECURSION_UNROLL_DEPTH} levels deep; deeper values travel as JSON text`,
        undefined,
      );
      return this.#freeForm(pointer, 'recursion', node);
    }
    this.#expanding.set(pointer, depth + 1);
    try {
      return this.#body(node, pointer);
    } finally {
      this.#expanding.set(pointer, depth);
    }
  }

  #body(node: JsonObject, pointer: string): Emitted {
    if (node.$ref !== undefined) return this.#followRef(node, pointer);
    const merged = Array.isArray(node.allOf) ? this.#mergeAllOf(node, pointer) : node;
    if (Array.isArray(merged.anyOf) || Array.isArray(merged.oneOf)) return this.#union(merged, pointer);
    return this.#typed(merged, pointer);
  }

  #followRef(node: JsonObject, pointer: string): Emitted {
    if (typeof node.$ref !== 'string') this.#refuse('invalid_schema', pointer, '"$ref" must be a string');
    const target = this.#resolve(node.$ref, pointer);
    const { $ref, ...siblings } = node;
    const constraining = Object.keys(siblings).filter((key) => !ANNOTATIONS.has(key) && !DROPPED.has(key));
    if (constraining.length > 0) {
      // `$ref` beside constraints means both apply (2020-12); merging keeps the reference's keywords first.
      this.#log(
        appendPointer(pointer, '$ref'),
        'inlined-ref',
        `${describeJson($ref)} merged with its sibling keywords`,
        '$ref',
      );
      return this.#translate(mergeSchemas(isJsonObject(target.value) ? target.value : {}, siblings), target.pointer);
    }
    const emitted = this.#translate(target.value, target.pointer);
    if (typeof emitted.schema.$ref === 'string') {
      if (Object.keys(siblings).length > 0) {
        this.#log(pointer, 'dropped', 'annotations beside a recursive $ref (providers want $ref alone)', 'description');
      }
      return emitted;
    }
    this.#log(appendPointer(pointer, '$ref'), 'inlined-ref', `${describeJson($ref)} inlined`, '$ref');
    return { schema: this.#applySiteAnnotations(emitted.schema, target.value, siblings), plan: emitted.plan };
  }

  /** The referencing site's description and title describe the use, so they win over the target's. */
  #applySiteAnnotations(schema: JsonObject, target: JsonValue, site: JsonObject): JsonObject {
    const result: JsonObject = { ...schema };
    if (typeof site.description === 'string') {
      const own = isJsonObject(target) && typeof target.description === 'string' ? target.description : '';
      const emitted = typeof schema.description === 'string' ? schema.description : '';
      const notes = own !== '' && emitted.startsWith(own) ? emitted.slice(own.length).trim() : emitted;
      result.description =
        notes === '' || notes === site.description ? site.description : `${site.description} ${notes}`;
    }
    if (typeof site.title === 'string' && this.#profile.annotations.has('title')) result.title = site.title;
    return result;
  }

  #mergeAllOf(node: JsonObject, pointer: string): JsonObject {
    const { allOf, ...rest } = node;
    let merged: JsonObject = rest;
    if (Array.isArray(allOf)) {
      allOf.forEach((member, index) => {
        merged = mergeSchemas(merged, this.#dereference(member, appendPointer(pointer, 'allOf', index)));
      });
    }
    this.#log(
      appendPointer(pointer, 'allOf'),
      'rewritten',
      'allOf merged into one schema (looser on conflicts)',
      'allOf',
    );
    return merged;
  }

  #dereference(member: JsonValue, pointer: string): JsonObject {
    if (!isJsonObject(member)) return {};
    if (typeof member.$ref !== 'string') return member;
    const target = this.#resolve(member.$ref, pointer);
    const { $ref: _ref, ...siblings } = member;
    return mergeSchemas(isJsonObject(target.value) ? target.value : {}, siblings);
  }

  #union(node: JsonObject, pointer: string): Emitted {
    const keyword = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
    const notes: string[] = [];
    if (keyword === 'anyOf' && Array.isArray(node.oneOf)) {
      notes.push(`oneOf: ${describeJson(node.oneOf)}`);
      this.#log(appendPointer(pointer, 'oneOf'), 'moved-to-description', 'oneOf beside anyOf', 'oneOf');
    }
    if (keyword === 'oneOf') {
      this.#log(
        appendPointer(pointer, 'oneOf'),
        'rewritten',
        'oneOf read as anyOf (the executor checks exactly-one)',
        'oneOf',
      );
    }
    const annotations = pick(rest, (key) => ANNOTATIONS.has(key));
    const shared = pick(rest, (key) => !ANNOTATIONS.has(key) && !DROPPED.has(key));
    if (Object.keys(shared).length > 0) {
      this.#log(
        pointer,
        'rewritten',
        `${Object.keys(shared).join(', ')} distributed into each ${keyword} branch`,
        keyword,
      );
    }
    for (const key of Object.keys(rest)) if (DROPPED.has(key)) this.#drop(pointer, key);

    const raw = node[keyword];
    const branches: PropertySource[] = (Array.isArray(raw) ? raw : []).map((branch, index) => ({
      value: Object.keys(shared).length > 0 ? mergeSchemas(isJsonObject(branch) ? branch : {}, shared) : branch,
      pointer: appendPointer(pointer, keyword, index),
    }));
    return this.#unionOf(branches, false, annotations, notes, pointer, keyword);
  }

  /** Branches of a union (each at its real pointer) as one provider-side schema, with their restore plan. */
  #unionOf(
    candidates: readonly PropertySource[],
    nullableUnion: boolean,
    annotations: JsonObject,
    notes: readonly string[],
    pointer: string,
    keyword = 'anyOf',
  ): Emitted {
    const branches: PropertySource[] = [];
    let nullable = nullableUnion;
    for (const branch of candidates) {
      if (matchesNothing(branch.value)) {
        this.#log(branch.pointer, 'dropped', 'branch that matches nothing', keyword);
      } else if (isNullOnly(branch.value)) {
        nullable = true;
        if (this.#profile.nullable === 'keyword') {
          this.#log(branch.pointer, 'rewritten', 'null branch → nullable', keyword);
        }
      } else {
        branches.push(branch);
      }
    }

    const [only, ...others] = branches;
    if (only === undefined) {
      const emitted = nullable ? this.#nullOnly() : this.#freeForm(pointer, 'any', {});
      return this.#finish(emitted, annotations, new Set(), notes, pointer);
    }
    if (others.length === 0) {
      // The union's own annotations describe the use; they win over the branch's, at the union's path.
      const emitted = this.#translate(only.value, only.pointer);
      const sited =
        typeof emitted.schema.$ref === 'string'
          ? emitted
          : { ...emitted, schema: this.#applySiteAnnotations(emitted.schema, only.value, annotations) };
      const finished = this.#finish(sited, annotations, new Set(['description', 'title']), notes, pointer);
      return nullable ? this.#nullable(finished) : finished;
    }
    const emitted = branches.map((branch) => ({ ...this.#translate(branch.value, branch.pointer), source: branch }));
    return this.#finish(this.#anyOf(emitted, nullable, pointer), annotations, new Set(), notes, pointer);
  }

  #typed(node: JsonObject, pointer: string): Emitted {
    let types = typeList(node.type);
    if (types === undefined) {
      const inferred = inferTypes(node);
      if (inferred === undefined) return this.#freeForm(pointer, 'any', node);
      if (inferred.fromStructure) {
        this.#log(
          pointer,
          'inferred-type',
          `no "type": ${inferred.types.join('/')} inferred from its keywords`,
          'type',
          `values at ${this.#where(pointer)} that are not ${inferred.types.join('/')}`,
        );
      }
      types = inferred.types;
    }
    const nullable = types.includes('null');
    let concrete = types.filter((type) => type !== 'null');
    if (concrete.includes('integer') && concrete.includes('number'))
      concrete = concrete.filter((type) => type !== 'integer');
    if (Array.isArray(node.type) && (concrete.length > 1 || (nullable && this.#profile.nullable === 'keyword'))) {
      const into = concrete.length > 1 ? 'anyOf branches' : 'nullable';
      this.#log(appendPointer(pointer, 'type'), 'rewritten', `type list ${describeJson(node.type)} → ${into}`, 'type');
    }
    const [first, ...more] = concrete;
    if (first === undefined) {
      return this.#finish(this.#nullOnly(), node, new Set(['type']), [], pointer);
    }
    if (more.length === 0) {
      const typed = this.#emitTyped(node, first, pointer);
      const finished = this.#finish(typed, node, typed.consumed, typed.notes, pointer);
      return nullable ? this.#nullable(finished) : finished;
    }
    const branches = concrete.map((type) => ({
      ...this.#emitTyped(node, type, pointer),
      source: { value: node, pointer },
    }));
    const consumed = new Set(branches.flatMap((branch) => [...branch.consumed]));
    const notes = [...new Set(branches.flatMap((branch) => branch.notes))];
    const union = this.#anyOf(branches, nullable);
    return this.#finish(union, node, consumed, notes, pointer);
  }

  /** The keywords of `node` that apply to values of one JSON type, in this dialect. */
  #emitTyped(node: JsonObject, type: string, pointer: string): Typed {
    const profile = this.#profile;
    const consumed = new Set<string>(['type']);
    const notes: string[] = [];
    const note = (keyword: string, kind: SchemaChangeKind, detail: string, text: string): void => {
      notes.push(text);
      this.#log(appendPointer(pointer, keyword), kind, detail, keyword);
    };
    const keep = (out: JsonObject, keyword: string, allowed: boolean): void => {
      const value = node[keyword];
      if (value === undefined) return;
      consumed.add(keyword);
      if (allowed) out[keyword] = value;
      else
        note(
          keyword,
          'moved-to-description',
          `"${keyword}" is not in the ${profile.target} subset`,
          `${keyword}: ${describeJson(value)}`,
        );
    };
    // `format` is kept only where the dialect accepts that format for this type; otherwise it is described.
    const keepFormat = (out: JsonObject): void => {
      if (typeof node.format !== 'string') return;
      consumed.add('format');
      if (profile.keepsFormat(type, node.format)) out.format = node.format;
      else
        note(
          'format',
          'moved-to-description',
          `format "${node.format}" is not accepted by ${profile.target}`,
          `format: ${node.format}`,
        );
    };

    if (type === 'object') {
      const object = this.#emitObject(node, pointer, consumed, notes);
      if (object !== undefined) return { ...object, consumed, notes };
      const additional = node.additionalProperties;
      if (isJsonObject(additional) && Object.keys(additional).length > 0)
        notes.push(`values: ${describeJson(additional)}`);
      const described = pick(node, (key) => key === 'description');
      const kind = additional === false ? 'empty-object' : 'object';
      return { ...this.#freeForm(pointer, kind, described), consumed, notes };
    }

    const out: JsonObject = { type };
    let plan: RestorePlan = SAME;
    this.#emitValues(node, type, pointer, out, consumed, note);

    if (type === 'string') {
      keepFormat(out);
      for (const keyword of ['minLength', 'maxLength', 'pattern'])
        keep(out, keyword, profile.stringKeywords.has(keyword));
    } else if (type === 'number' || type === 'integer') {
      keepFormat(out);
      for (const keyword of ['minimum', 'maximum', 'multipleOf'])
        keep(out, keyword, profile.numberKeywords.has(keyword));
      for (const [keyword, inclusive] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        const value = node[keyword];
        if (value === undefined) continue;
        consumed.add(keyword);
        if (profile.numberKeywords.has(keyword)) {
          out[keyword] = value;
        } else if (
          typeof value === 'number' &&
          profile.exclusiveBoundsAsInclusive &&
          profile.numberKeywords.has(inclusive)
        ) {
          const current = out[inclusive];
          const looser =
            typeof current !== 'number' || (keyword === 'exclusiveMinimum' ? value > current : value < current);
          if (looser) out[inclusive] = value;
          note(keyword, 'rewritten', `${keyword} ${value} → ${inclusive} ${value} (looser)`, `${keyword}: ${value}`);
        } else {
          note(
            keyword,
            'moved-to-description',
            `"${keyword}" is not in the ${profile.target} subset`,
            `${keyword}: ${describeJson(value)}`,
          );
        }
      }
    } else if (type === 'array') {
      plan = this.#emitItems(node, pointer, out, consumed, note);
      if (typeof node.minItems === 'number') {
        consumed.add('minItems');
        if (profile.keepsMinItems(node.minItems)) out.minItems = node.minItems;
        else
          note(
            'minItems',
            'moved-to-description',
            `minItems ${node.minItems} is not in the ${profile.target} subset`,
            `minItems: ${node.minItems}`,
          );
      }
      keep(out, 'maxItems', profile.arrayKeywords.has('maxItems'));
    }
    return { schema: out, plan, consumed, notes };
  }

  /** `enum` and `const`, restricted to the values of one JSON type. */
  #emitValues(
    node: JsonObject,
    type: string,
    pointer: string,
    out: JsonObject,
    consumed: Set<string>,
    note: (keyword: string, kind: SchemaChangeKind, detail: string, text: string) => void,
  ): void {
    const ofType = (value: JsonValue): boolean => {
      const actual = jsonTypeOf(value);
      return actual === type || (type === 'number' && actual === 'integer');
    };
    const allowed = (values: readonly JsonValue[]): boolean => {
      if (this.#profile.enumValues === 'strings')
        return type === 'string' && values.every((v) => typeof v === 'string');
      if (this.#profile.enumValues === 'primitives') return values.every((v) => v === null || typeof v !== 'object');
      return true;
    };
    if (node.enum !== undefined) {
      consumed.add('enum');
      const values = Array.isArray(node.enum) ? node.enum.filter(ofType) : [];
      if (values.length > 0) {
        if (allowed(values)) out.enum = values;
        else
          note(
            'enum',
            'moved-to-description',
            `${type} enum is not accepted by ${this.#profile.target}`,
            `allowed values: ${describeJson(values)}`,
          );
      }
    }
    if (node.const !== undefined) {
      consumed.add('const');
      const value = node.const;
      if (!ofType(value)) return;
      if (this.#profile.keepsConst && allowed([value])) {
        out.const = value;
      } else if (allowed([value])) {
        out.enum = [value];
        this.#log(appendPointer(pointer, 'const'), 'rewritten', 'const → one-value enum', 'const');
      } else {
        note(
          'const',
          'moved-to-description',
          `${type} const is not accepted by ${this.#profile.target}`,
          `must be ${describeJson(value)}`,
        );
      }
    }
  }

  #emitItems(
    node: JsonObject,
    pointer: string,
    out: JsonObject,
    consumed: Set<string>,
    note: (keyword: string, kind: SchemaChangeKind, detail: string, text: string) => void,
  ): RestorePlan {
    consumed.add('items');
    consumed.add('prefixItems');
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : undefined;
    const rest = node.items;
    if (prefix !== undefined && this.#profile.keepsPrefixItems) {
      const positions = prefix.map((item, index) =>
        this.#translate(item, appendPointer(pointer, 'prefixItems', index)),
      );
      out.prefixItems = positions.map((position) => position.schema);
      let items: RestorePlan = SAME;
      if (rest !== undefined) {
        const emitted = this.#translate(rest, appendPointer(pointer, 'items'));
        out.items = emitted.schema;
        items = emitted.plan;
      }
      return arrayPlan(
        positions.map((position) => position.plan),
        items,
      );
    }
    if (prefix !== undefined) {
      const members: Emitted[] = prefix.map((item, index) => {
        const itemPointer = appendPointer(pointer, 'prefixItems', index);
        return { ...this.#translate(item, itemPointer), source: { value: item, pointer: itemPointer } };
      });
      const maxItems = typeof node.maxItems === 'number' ? node.maxItems : undefined;
      if (rest !== undefined && rest !== false) {
        const restPointer = appendPointer(pointer, 'items');
        members.push({ ...this.#translate(rest, restPointer), source: { value: rest, pointer: restPointer } });
      } else if (rest === undefined && (maxItems === undefined || maxItems > prefix.length)) {
        // Without `items`, elements past the tuple may be anything.
        members.push(this.#freeForm(pointer, 'any', {}, 'elements past the tuple'));
      }
      note(
        'prefixItems',
        'rewritten',
        'tuple → items: anyOf of its positions (looser; the executor checks each position)',
        `positions in order: ${describeJson(prefix)}`,
      );
      const items = this.#anyOf(members, false);
      out.items = items.schema;
      return arrayPlan([], items.plan);
    }
    const items =
      rest === undefined
        ? this.#freeForm(pointer, 'any', {}, 'array without "items"')
        : this.#translate(rest, appendPointer(pointer, 'items'));
    out.items = items.schema;
    return arrayPlan([], items.plan);
  }

  /** An object with declared properties, or undefined for a free-form one (no properties). */
  #emitObject(node: JsonObject, pointer: string, consumed: Set<string>, notes: string[]): Emitted | undefined {
    const profile = this.#profile;
    for (const keyword of ['properties', 'required', 'additionalProperties']) consumed.add(keyword);
    const declared = isJsonObject(node.properties) ? { ...node.properties } : {};
    const required = Array.isArray(node.required)
      ? node.required.filter((name): name is string => typeof name === 'string')
      : [];
    for (const name of required) {
      if (!Object.hasOwn(declared, name)) {
        declared[name] = true;
        this.#log(
          appendPointer(pointer, 'required'),
          'rewritten',
          `required "${name}" has no schema: declared as any value`,
          'required',
        );
      }
    }
    const additional = node.additionalProperties;
    const out: JsonObject = { type: 'object' };
    for (const keyword of ['minProperties', 'maxProperties']) {
      if (node[keyword] === undefined) continue;
      consumed.add(keyword);
      if (profile.objectKeywords.has(keyword)) out[keyword] = node[keyword] ?? null;
      else {
        notes.push(`${keyword}: ${describeJson(node[keyword] ?? null)}`);
        this.#log(
          appendPointer(pointer, keyword),
          'moved-to-description',
          `"${keyword}" is not in the ${profile.target} subset`,
          keyword,
        );
      }
    }

    const names = Object.keys(declared);
    if (names.length === 0) {
      if (profile.strictObjects && additional === false && !hasPatterns(node)) {
        return { schema: { ...out, properties: {}, required: [], additionalProperties: false }, plan: SAME };
      }
      if (profile.freeForm === 'json-string') return undefined;
      out.properties = {};
      this.#emitAdditional(node, pointer, out, notes);
      return { schema: out, plan: SAME };
    }

    const properties: JsonObject = {};
    const plans = new Map<string, PropertyPlan>();
    for (const name of names) {
      const sources = pointer === '' ? this.#rootSources?.get(name) : undefined;
      const propertyPointer = sources?.[0]?.pointer ?? appendPointer(pointer, 'properties', name);
      let child =
        sources === undefined
          ? this.#translate(declared[name] ?? true, propertyPointer)
          : this.#unionOf(sources, false, {}, [], propertyPointer);
      const optional = !required.includes(name);
      let nullMeansOmitted = false;
      if (profile.strictObjects && optional) {
        // Only a null the ORIGINAL accepts is an input strict mode could lose (the provider side is looser, so
        // it accepts null at least there; a merged root property is taken to accept it).
        const acceptsNull =
          (child.nullOnly === true || outputTypes(child.schema).has('null')) &&
          (sources !== undefined || this.#originalAcceptsNull(declared[name], propertyPointer));
        const stand =
          acceptsNull && sources === undefined
            ? this.#defaultStandsForOmitted(declared[name], propertyPointer)
            : undefined;
        if (stand !== undefined) {
          this.#log(
            propertyPointer,
            'required-with-default',
            `optional, accepts null and declares default ${describeJson(stand.value)} → required as it is: the model sends the default where it would leave "${name}" out, and a null stays null`,
            'default',
          );
        } else {
          child = this.#nullable(child);
          nullMeansOmitted = true;
          this.#log(
            propertyPointer,
            'made-nullable',
            'optional → required and nullable; null means "omitted"',
            undefined,
            acceptsNull ? `an explicit null for "${name}" arrives as "${name}" omitted` : undefined,
          );
        }
      }
      properties[name] = child.schema;
      plans.set(name, { plan: child.plan, nullMeansOmitted });
    }
    out.properties = properties;
    if (profile.strictObjects) out.required = names;
    else if (required.length > 0) out.required = required;

    if (profile.strictObjects) {
      out.additionalProperties = false;
      // Keys matching patternProperties are declared inputs, even beside `additionalProperties: false`.
      if ((additional !== false || hasPatterns(node)) && !this.#closesImplicitly(node, pointer)) {
        this.#log(
          pointer,
          'closed-object',
          'strict mode: keys beyond the declared properties cannot be sent',
          'additionalProperties',
          `keys ${this.#where(pointer)} declares no property for`,
        );
        if (isJsonObject(additional) && Object.keys(additional).length > 0) {
          notes.push(`additional keys: ${describeJson(additional)}`);
        }
      }
    } else {
      this.#emitAdditional(node, pointer, out, notes);
    }
    const same = [...plans.values()].every((entry) => entry.plan.kind === 'same' && !entry.nullMeansOmitted);
    return { schema: out, plan: same ? SAME : { kind: 'object', properties: plans } };
  }

  #emitAdditional(node: JsonObject, pointer: string, out: JsonObject, notes: string[]): void {
    const additional = node.additionalProperties;
    if (additional === undefined) return;
    const path = appendPointer(pointer, 'additionalProperties');
    const mode = this.#profile.additionalProperties;
    if (additional === false && hasPatterns(node)) {
      // Keys matching patternProperties are still allowed: closing the object would forbid them.
      this.#log(path, 'rewritten', 'not sent: keys matching patternProperties are allowed', 'additionalProperties');
    } else if (additional === false) {
      if (mode === 'none') {
        this.#log(
          path,
          'dropped',
          `${this.#profile.target} has no additionalProperties; the executor still rejects extra keys`,
          'additionalProperties',
        );
      } else {
        out.additionalProperties = false;
      }
    } else if (additional === true || (isJsonObject(additional) && Object.keys(additional).length === 0)) {
      this.#log(path, 'dropped', 'additional keys are allowed by default', 'additionalProperties');
    } else if (mode === 'keep') {
      out.additionalProperties = this.#translate(additional, path).schema;
    } else {
      notes.push(`additional keys: ${describeJson(additional)}`);
      this.#log(
        path,
        'moved-to-description',
        `a schema for additional keys is not in the ${this.#profile.target} subset`,
        'additionalProperties',
      );
    }
  }

  // ── shapes ───────────────────────────────────────────────────────────────────────────────────────

  #anyOf(candidates: readonly Emitted[], nullableUnion: boolean, pointer = ''): Emitted {
    const nullable = nullableUnion || candidates.some((branch) => branch.nullOnly === true);
    const branches = candidates.filter((branch) => branch.nullOnly !== true);
    if (branches.length === 0) return this.#nullOnly();
    // Branches the provider sees as the same schema are sent once; their plans all stay, since the same
    // provider-side value may restore differently under each (restoring decides by validation).
    const distinct: Emitted[] = [];
    for (const branch of branches.flatMap((candidate) => this.#flatten(candidate))) {
      const twin = distinct.find((other) => jsonEquals(other.schema, branch.schema));
      if (twin === undefined || !(twin.plan.kind === 'same' && branch.plan.kind === 'same')) distinct.push(branch);
    }
    const shapes: JsonObject[] = [];
    for (const branch of distinct)
      if (!shapes.some((other) => jsonEquals(other, branch.schema))) shapes.push(branch.schema);
    const strings = shapes.filter((shape) => outputTypes(shape).has('string')).length;
    // Two string-typed branches (a plain string and a JSON-encoded value) could not be told apart when
    // restoring, so JSON text moves inside `{ "json": "..." }` there.
    const unique = distinct.map((branch) =>
      branch.plan.kind === 'json' && !branch.plan.wrapped && strings > 1 ? this.#wrapJson(branch) : branch,
    );
    const schemas: JsonObject[] = [];
    for (const branch of unique)
      if (!schemas.some((other) => jsonEquals(other, branch.schema))) schemas.push(branch.schema);
    const [only, ...others] = unique;
    if (only === undefined) return this.#freeForm('', 'any', {});
    if (others.length === 0) return nullable ? this.#nullable(only) : only;
    const plan: RestorePlan = unique.every((branch) => branch.plan.kind === 'same')
      ? SAME
      : { kind: 'any-of', branches: unique.map((branch) => this.#branchPlan(branch)) };
    if (plan.kind !== 'same') this.#checkTellable(unique, pointer);
    const schema: JsonObject =
      mergeEnumBranches(schemas) ?? (schemas.length === 1 ? { ...schemas[0] } : { anyOf: schemas });
    return nullable ? this.#nullable({ schema, plan }) : { schema, plan };
  }

  #branchPlan(branch: Emitted): BranchPlan {
    const source = branch.source;
    return {
      plan: branch.plan,
      schema: branch.schema,
      ...(source === undefined ? {} : { source }),
      types: outputTypes(branch.schema),
      keys: isJsonObject(branch.schema.properties) ? new Set(Object.keys(branch.schema.properties)) : undefined,
      ...(source === undefined ? {} : { accepts: this.#validator(source.pointer) }),
    };
  }

  /**
   * Logs a union whose branches a provider-side value cannot always be mapped back to: two object branches
   * restored differently, with no discriminator (a required const/enum key with disjoint values) and no
   * required key the other branch refuses. Restoring then keeps the first branch whose original accepts
   * the value, which may not be the one the model meant.
   */
  #checkTellable(branches: readonly Emitted[], pointer: string): void {
    for (const [index, first] of branches.entries()) {
      for (const second of branches.slice(index + 1)) {
        if (first.plan === second.plan || (first.plan.kind === 'same' && second.plan.kind === 'same')) continue;
        const shared = [...outputTypes(first.schema)].filter((type) => outputTypes(second.schema).has(type));
        if (!shared.includes('object')) continue;
        const original = (branch: Emitted): JsonObject | undefined =>
          branch.source === undefined ? undefined : this.#dereference(branch.source.value, branch.source.pointer);
        if (toldApart(original(first), second, original(second), !this.#keepUndeclaredKeys)) continue;
        if (restoresAlike(first, second, original(first), original(second), !this.#keepUndeclaredKeys)) continue;
        this.#log(
          pointer,
          'ambiguous-restore',
          `branches ${first.source?.pointer ?? '?'} and ${second.source?.pointer ?? '?'} look alike to the provider but restore differently, and no required const/enum key tells them apart: the first branch the original accepts wins`,
          'anyOf',
        );
        return;
      }
    }
  }

  /** A branch that is itself a bare anyOf (an inlined union) contributes its own branches. */
  #flatten(branch: Emitted): Emitted[] {
    const inner = branch.schema.anyOf;
    const bare = Object.keys(branch.schema).every((key) => key === 'anyOf');
    if (!Array.isArray(inner) || !bare) return [branch];
    if (branch.plan.kind === 'any-of') {
      return branch.plan.branches.map((entry) => ({
        schema: entry.schema,
        plan: entry.plan,
        ...(entry.source === undefined ? {} : { source: entry.source }),
      }));
    }
    return inner.filter(isJsonObject).map((schema) => ({
      schema,
      plan: SAME,
      ...(branch.source === undefined ? {} : { source: branch.source }),
    }));
  }

  #wrapJson(branch: Emitted): Emitted {
    const wrapper: JsonObject = {
      type: 'object',
      properties: { json: branch.schema },
      required: ['json'],
    };
    if (this.#profile.strictObjects) wrapper.additionalProperties = false;
    return {
      schema: wrapper,
      plan: { kind: 'json', wrapped: true },
      ...(branch.source === undefined ? {} : { source: branch.source }),
    };
  }

  #nullable(emitted: Emitted): Emitted {
    const schema = emitted.schema;
    if (this.#profile.nullable === 'keyword') {
      if (Array.isArray(schema.anyOf)) {
        return {
          schema: {
            ...schema,
            anyOf: schema.anyOf.map((branch) => (isJsonObject(branch) ? { ...branch, nullable: true } : branch)),
          },
          plan: emitted.plan,
        };
      }
      return { schema: { ...schema, nullable: true }, plan: emitted.plan };
    }
    if (Array.isArray(schema.anyOf)) {
      if (schema.anyOf.some(isNullOnly)) return emitted;
      return { schema: { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] }, plan: emitted.plan };
    }
    if (typeof schema.$ref === 'string' || schema.const !== undefined) {
      const { description, title, ...core } = schema;
      const wrapped: JsonObject = { anyOf: [core, { type: 'null' }] };
      if (description !== undefined) wrapped.description = description;
      if (title !== undefined) wrapped.title = title;
      return { schema: wrapped, plan: emitted.plan };
    }
    const types = typeList(schema.type);
    if (types === undefined || types.includes('null')) return emitted;
    const result: JsonObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
    return { schema: result, plan: emitted.plan };
  }

  #nullOnly(): Emitted {
    // Gemini has no null type; a nullable string is the nearest looser shape.
    if (this.#profile.nullable === 'keyword')
      return { schema: { type: 'string', nullable: true }, plan: SAME, nullOnly: true };
    return { schema: { type: 'null' }, plan: SAME, nullOnly: true };
  }

  #freeForm(pointer: string, kind: FreeFormKind, node: JsonObject, why?: string): Emitted {
    const profile = this.#profile;
    const description = typeof node.description === 'string' ? node.description : undefined;
    let schema: JsonObject;
    let plan: RestorePlan = SAME;
    if (profile.freeForm === 'json-string') {
      const phrase = {
        any: 'Any JSON value, written as JSON text.',
        object: 'A JSON object with any keys, written as JSON text.',
        'empty-object': 'The empty JSON object {}, written as JSON text.',
        recursion: `A nested value of the same shape as the enclosing one, written as JSON text (described only ${RECURSION_UNROLL_DEPTH} levels deep).`,
      }[kind];
      schema = { type: 'string', description: description === undefined ? phrase : `${description} ${phrase}` };
      plan = { kind: 'json', wrapped: false };
      if (kind !== 'recursion') {
        this.#log(
          pointer,
          'json-encoded',
          `${why ?? `${kind === 'any' ? 'any value' : 'free-form object'}`} has no ${profile.target} shape: sent as JSON text`,
          undefined,
        );
      }
    } else if (kind === 'any') {
      schema = profile.freeForm === 'any-type-list' ? { type: ANY_TYPES } : {};
      if (description !== undefined) schema.description = description;
    } else {
      schema = { type: 'object' };
      if (kind === 'empty-object') {
        schema.properties = {};
        if (profile.additionalProperties !== 'none') schema.additionalProperties = false;
      }
      if (description !== undefined) schema.description = description;
    }
    if (kind === 'recursion') return { schema, plan };
    const consumed = new Set(['type', 'description', 'properties', 'additionalProperties', 'required', 'items']);
    return this.#finish({ schema, plan }, node, consumed, [], pointer);
  }

  #refToDefinition(node: JsonObject, pointer: string): Emitted {
    if (pointer === '') return { schema: { $ref: '#' }, plan: { kind: 'lazy', resolve: () => this.#rootPlan } };
    let entry = this.#defs.get(pointer);
    if (entry === undefined) {
      entry = { name: this.#definitionName(pointer), schema: undefined, plan: undefined };
      this.#defs.set(pointer, entry);
      this.#log(pointer, 'hoisted-ref', `recursive schema kept once as $defs/${entry.name}`, '$ref');
      const emitted = this.#translate(node, pointer, true);
      entry.schema = emitted.schema;
      entry.plan = emitted.plan;
    }
    const found = entry;
    return { schema: { $ref: `#/$defs/${found.name}` }, plan: { kind: 'lazy', resolve: () => found.plan ?? SAME } };
  }

  #definitionName(pointer: string): string {
    const tokens = pointer
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const fromDefs = tokens.length === 2 && (tokens[0] === '$defs' || tokens[0] === 'definitions');
    const meaningful = fromDefs ? tokens.slice(1) : tokens.filter((token) => token !== 'properties');
    const base = meaningful.join('_').replaceAll(/[^A-Za-z0-9_]/g, '_') || 'node';
    let name = base;
    for (let suffix = 2; this.#defNames.has(name); suffix += 1) name = `${base}_${suffix}`;
    this.#defNames.add(name);
    return name;
  }

  // ── root ─────────────────────────────────────────────────────────────────────────────────────────

  /** A union at the root (a provider wants one object): the smallest one object that accepts every variant. */
  #mergeRootUnion(node: JsonObject): JsonObject {
    const keyword = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
    const merged = mergeRootUnion(node, keyword, (member, pointer) => this.#dereference(member, pointer));
    this.#rootSources = merged.sources;
    this.#rootDeclaredOpen = merged.declaredOpen;
    for (const pointer of merged.skipped)
      this.#log(pointer, 'dropped', 'variant that is not an object: tool arguments are always an object', keyword);
    this.#log(
      `/${keyword}`,
      'rewritten',
      `root ${keyword} merged into one object: each property accepts what any variant accepts, only keys every variant requires stay required (looser; the executor checks the variants)`,
      keyword,
    );
    return merged.node;
  }

  #rootAsObject(node: JsonObject): JsonObject {
    const types = typeList(node.type);
    if (types === undefined) {
      if (node.items !== undefined || node.prefixItems !== undefined) {
        this.#refuse(
          'root_not_object',
          '',
          'the root describes an array; tool arguments are an object of named values',
        );
      }
      if (Object.keys(node).length === 0)
        this.#log('', 'rewritten', 'empty root schema → object without properties', 'type');
      else this.#log('', 'inferred-type', 'root without "type": object', 'type');
      return { ...node, type: 'object' };
    }
    if (!types.includes('object')) {
      this.#refuse(
        'root_not_object',
        '/type',
        `root type ${describeJson(node.type ?? null)}; tool arguments are an object of named values`,
      );
    }
    if (types.length > 1)
      this.#log('/type', 'rewritten', 'root narrowed to object: tool arguments are always an object', 'type');
    return { ...node, type: 'object' };
  }

  #rootWithoutParameters(node: JsonObject): WalkedRoot {
    const profile = this.#profile;
    const additional = node.additionalProperties;
    const isMap =
      (isJsonObject(additional) && Object.keys(additional).length > 0) || node.patternProperties !== undefined;
    if (isMap && (profile.freeForm === 'json-string' || profile.strictObjects)) {
      this.#refuse(
        'free_form_root',
        '',
        `the root takes arbitrary keys (${describeJson(additional ?? node.patternProperties ?? null)}); ${profile.target} cannot declare that (anthropic, openai and gemini-json-schema can)`,
      );
    }
    const consumed = new Set(['type', 'properties', 'required', 'additionalProperties']);
    if (profile.target === 'gemini') {
      const implicit = this.#closesImplicitly(node, '');
      this.#log(
        '',
        'omitted-parameters',
        'no parameters: the declaration omits `parameters`',
        undefined,
        additional === false || implicit ? undefined : 'any argument at all (the tool declares none)',
      );
      const finished = this.#finish({ schema: { type: 'object', properties: {} }, plan: SAME }, node, consumed, [], '');
      return { ...finished, omitParameters: true };
    }
    const schema: JsonObject = { type: 'object', properties: {} };
    if (profile.strictObjects) {
      schema.required = [];
      schema.additionalProperties = false;
      if (additional !== false && !this.#closesImplicitly(node, ''))
        this.#log(
          '',
          'closed-object',
          'strict mode: no keys can be sent to a tool without parameters',
          'additionalProperties',
          'any argument at all (the tool declares none)',
        );
    } else if (additional === false && profile.additionalProperties !== 'none' && !hasPatterns(node)) {
      schema.additionalProperties = false;
    } else if (isMap) {
      this.#emitAdditional(node, '', schema, []);
      consumed.add('patternProperties');
    }
    return { ...this.#finish({ schema, plan: SAME }, node, consumed, [], ''), omitParameters: false };
  }

  /**
   * OpenAI strict makes every property required. An optional one that already accepts `null` cannot use null
   * for "omitted" without losing the explicit null, unless it declares a `default`: omitting it and sending
   * that default are then one input by the schema's own word, so the property stays as it is, required, and
   * the model sends the default (the description shows it) where it would have left the key out. Only when the
   * ORIGINAL property accepts both null (checked by the caller) and its default.
   */
  #defaultStandsForOmitted(property: JsonValue | undefined, pointer: string): { value: JsonValue } | undefined {
    if (!isJsonObject(property)) return undefined;
    const node = this.#dereference(property, pointer);
    if (!Object.hasOwn(node, 'default')) return undefined;
    const value = node.default as JsonValue;
    // Called once null is known to be accepted, so the common `default: null` needs no validator.
    return value === null || this.#validator(pointer)(value) ? { value } : undefined;
  }

  /** Whether the original property accepts null: from its keywords where that is exact, else by validation. */
  #originalAcceptsNull(property: JsonValue | undefined, pointer: string): boolean {
    return acceptsNull(property ?? true) ?? this.#validator(pointer)(null);
  }

  /**
   * Whether an object that omits `additionalProperties` (and has no `patternProperties`) is closed as carrying
   * no declared input beyond its properties; logs `closed-implicit-object` when it is. Keys nobody declared are
   * not inputs a model can know of, and a dialect that closes objects keeps its guarantee for the whole tool.
   */
  #closesImplicitly(node: JsonObject, pointer: string): boolean {
    if (this.#keepUndeclaredKeys || node.additionalProperties !== undefined || node.patternProperties !== undefined)
      return false;
    if (pointer === '' && this.#rootDeclaredOpen) return false;
    const where = this.#where(pointer);
    this.#log(
      pointer,
      'closed-implicit-object',
      this.#profile.strictObjects
        ? `strict mode closes ${where}, which omits additionalProperties: only its declared properties can be sent`
        : `${where} declares no parameters and omits additionalProperties: the tool is called without arguments`,
      'additionalProperties',
    );
    return true;
  }

  // ── bookkeeping ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Copies the annotations the dialect keeps, logs dropped keywords, and appends every keyword the
   * dialect cannot carry to the description, so the model still reads the constraint.
   */
  #finish(
    emitted: Emitted,
    node: JsonObject,
    consumed: ReadonlySet<string>,
    notes: readonly string[],
    pointer: string,
  ): Emitted {
    const schema: JsonObject = { ...emitted.schema };
    if (typeof schema.$ref === 'string') {
      for (const keyword of Object.keys(node)) {
        if (!consumed.has(keyword))
          this.#log(appendPointer(pointer, keyword), 'dropped', 'beside a $ref, which providers want alone', keyword);
      }
      return emitted;
    }
    const extra = [...notes];
    for (const [keyword, value] of Object.entries(node)) {
      if (consumed.has(keyword) || keyword === 'description') continue;
      const path = appendPointer(pointer, keyword);
      if (DROPPED.has(keyword)) {
        this.#drop(pointer, keyword);
      } else if (
        this.#profile.annotations.has(keyword) &&
        typeof schema.$ref !== 'string' &&
        // A default for a JSON-encoded value would itself need encoding; the description carries it.
        !(keyword === 'default' && emitted.plan.kind === 'json')
      ) {
        schema[keyword] = value;
      } else if (keyword === 'deprecated' || keyword === 'readOnly' || keyword === 'writeOnly') {
        this.#log(path, 'dropped', `"${keyword}" annotation`, keyword);
      } else {
        extra.push(`${keyword}: ${describeJson(value)}`);
        this.#log(path, 'moved-to-description', `"${keyword}" is not in the ${this.#profile.target} subset`, keyword);
      }
    }
    if (typeof node.description === 'string' && schema.description === undefined && typeof schema.$ref !== 'string') {
      schema.description = node.description;
    } else if (node.description !== undefined && typeof node.description !== 'string') {
      this.#log(appendPointer(pointer, 'description'), 'dropped', 'description is not a string', 'description');
    }
    return this.#withNotes({ ...emitted, schema }, extra);
  }

  #withNotes(emitted: Emitted, notes: readonly string[]): Emitted {
    if (notes.length === 0 || typeof emitted.schema.$ref === 'string') return emitted;
    const current = typeof emitted.schema.description === 'string' ? emitted.schema.description : '';
    const text = `(${notes.join('; ')})`;
    return { ...emitted, schema: { ...emitted.schema, description: current === '' ? text : `${current} ${text}` } };
  }

  /** `the object at /x` or `the root`, for `narrows` texts. */
  #where(pointer: string): string {
    const path = this.#originalPath(pointer);
    return path === '' ? 'the root' : `the object at ${path}`;
  }

  #drop(pointer: string, keyword: string): void {
    this.#log(appendPointer(pointer, keyword), 'dropped', DROPPED.get(keyword) ?? 'not sent', keyword);
  }

  #resolve(ref: string, pointer: string): { value: JsonValue; pointer: string } {
    const target = resolveLocalRef(this.#root, ref);
    if (target === undefined) {
      this.#refuse(
        'unresolvable_ref',
        appendPointer(pointer, '$ref'),
        `${describeJson(ref)} does not point into this schema`,
      );
    }
    return target;
  }

  #log(pointer: string, kind: SchemaChangeKind, detail: string, keyword: string | undefined, narrows?: string): void {
    this.#changes.add(this.#originalPath(pointer), kind, detail, keyword, narrows);
  }

  #refuse(reason: SchemaRefusalReason, pointer: string, detail: string): never {
    throw new SchemaTranslationError({
      target: this.#profile.target,
      reason,
      path: this.#originalPath(pointer),
      detail,
      toolName: this.#toolName,
    });
  }
}

function arrayPlan(prefix: readonly RestorePlan[], items: RestorePlan): RestorePlan {
  if (items.kind === 'same' && prefix.every((plan) => plan.kind === 'same')) return SAME;
  return { kind: 'array', prefix, items };
}

const ENUM_BRANCH_KEYS: ReadonlySet<string> = new Set(['type', 'enum', 'const', 'description', 'title']);

/**
 * `anyOf` of value lists of one type (a root union's `type: {const: "A"}`, `{const: "AAAA"}`…) as ONE enum
 * with every value: the same values, and the form every provider reads best. Undefined when not all alike.
 */
function mergeEnumBranches(schemas: readonly JsonObject[]): JsonObject | undefined {
  if (schemas.length < 2) return undefined;
  const type = schemas[0]?.type;
  const values: JsonValue[] = [];
  for (const schema of schemas) {
    if (!Object.keys(schema).every((key) => ENUM_BRANCH_KEYS.has(key))) return undefined;
    if (!jsonEquals(schema.type, type) || (type !== undefined && typeof type !== 'string')) return undefined;
    const own = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
    if (own === undefined || own.some((value) => typeof value === 'object' && value !== null)) return undefined;
    for (const value of own) if (!values.some((other) => other === value)) values.push(value);
  }
  const merged: JsonObject = type === undefined ? { enum: values } : { type, enum: values };
  const description = schemas.find((schema) => typeof schema.description === 'string')?.description;
  if (description !== undefined) merged.description = description;
  return merged;
}

/**
 * Whether what a model sends for the LATER branch `second` can never be valid under the EARLIER original
 * branch `first` once restored (restoring tries branches in order, so only that direction can mislead):
 * `first` requires a key whose allowed values (const/enum) exclude all of `second`'s, or a key `second`
 * does not declare while refusing undeclared keys (its provider-side schema, or its original, is closed, or
 * omits `additionalProperties` while undeclared keys do not count as inputs).
 */
function toldApart(
  first: JsonObject | undefined,
  second: Emitted,
  original: JsonObject | undefined,
  implicitClosed: boolean,
): boolean {
  if (first === undefined) return false;
  const properties = (schema: JsonValue | undefined): JsonObject =>
    isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : {};
  const values = (schema: JsonValue | undefined): JsonValue[] | undefined => {
    if (!isJsonObject(schema)) return undefined;
    if (schema.const !== undefined) return [schema.const];
    return Array.isArray(schema.enum) ? schema.enum : undefined;
  };
  // A wrapper for JSON text (`{ "json": "..." }`) carries that one key.
  const closed =
    second.schema.additionalProperties === false ||
    (second.plan.kind === 'json' && second.plan.wrapped) ||
    original?.additionalProperties === false ||
    // Keys an object leaves open by omitting additionalProperties are not inputs (`keepUndeclaredKeys`).
    (implicitClosed && original?.additionalProperties === undefined && original?.patternProperties === undefined);
  const declared = new Set([...Object.keys(properties(second.schema)), ...Object.keys(properties(original))]);
  const required = Array.isArray(first.required)
    ? first.required.filter((name): name is string => typeof name === 'string')
    : [];
  // The later branch always carries a key the earlier (closed) original does not allow: one its original
  // requires, or one its provider-side schema requires (OpenAI strict requires every property, null or not,
  // and a key restoring under the earlier branch's plan does not know passes through as it is).
  const strings = (list: JsonValue | undefined): string[] =>
    Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
  const alwaysSent = new Set([...strings(original?.required), ...strings(second.schema.required)]);
  if (
    first.additionalProperties === false &&
    !isJsonObject(first.patternProperties) &&
    [...alwaysSent].some((name) => !Object.hasOwn(properties(first), name))
  )
    return true;
  return required.some((name) => {
    if (!declared.has(name)) return closed;
    const mine = values(properties(first)[name]);
    const theirs = values(properties(original)[name]);
    return (
      mine !== undefined &&
      theirs !== undefined &&
      !mine.some((value) => theirs.some((other) => jsonEquals(value, other)))
    );
  });
}

/**
 * Whether a value the model sends for the LATER branch `second`, whenever the EARLIER branch's original accepts
 * it once restored under the earlier branch's plan, restores the same under both plans (so picking the earlier
 * one does no harm). Each key the value can carry must either restore alike under both plans (unchanged by
 * both, `null` read alike), or be one the earlier original refuses outright (it is closed and does not declare
 * it). Undeclared keys of the later branch count when they are inputs (it is open explicitly, or implicitly and
 * `implicitClosed` is off).
 */
function restoresAlike(
  first: Emitted,
  second: Emitted,
  firstOriginal: JsonObject | undefined,
  secondOriginal: JsonObject | undefined,
  implicitClosed: boolean,
): boolean {
  if (firstOriginal === undefined || secondOriginal === undefined) return false;
  const entries = (branch: Emitted): ReadonlyMap<string, PropertyPlan> | undefined =>
    branch.plan.kind === 'object' ? branch.plan.properties : branch.plan.kind === 'same' ? new Map() : undefined;
  const firstPlans = entries(first);
  const secondPlans = entries(second);
  if (firstPlans === undefined || secondPlans === undefined) return false;
  const declaredByFirst = new Set([
    ...Object.keys(isJsonObject(firstOriginal.properties) ? firstOriginal.properties : {}),
    ...firstPlans.keys(),
  ]);
  const firstClosed = firstOriginal.additionalProperties === false && firstOriginal.patternProperties === undefined;
  const alike = (key: string): boolean => {
    const mine = firstPlans.get(key);
    const theirs = secondPlans.get(key);
    const same = (entry: PropertyPlan | undefined): boolean => entry === undefined || entry.plan.kind === 'same';
    return same(mine) && same(theirs) && (mine?.nullMeansOmitted ?? false) === (theirs?.nullMeansOmitted ?? false);
  };
  const sent = new Set([
    ...Object.keys(isJsonObject(second.schema.properties) ? second.schema.properties : {}),
    ...secondPlans.keys(),
  ]);
  for (const key of sent) if (!alike(key) && (declaredByFirst.has(key) || !firstClosed)) return false;
  const secondOpen =
    secondOriginal.additionalProperties !== false &&
    !(
      implicitClosed &&
      secondOriginal.additionalProperties === undefined &&
      secondOriginal.patternProperties === undefined
    );
  // Undeclared keys of the later branch pass through its plan unchanged; the earlier plan may reshape them.
  if (secondOpen) for (const key of firstPlans.keys()) if (!sent.has(key) && !alike(key)) return false;
  return true;
}

function hasPatterns(node: JsonObject): boolean {
  return isJsonObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0;
}
