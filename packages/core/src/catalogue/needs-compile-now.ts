import type { Draft } from './load-ajv.js';
import { KEYWORD_SCHEMA_TYPES, KEYWORDS_THE_META_SCHEMA_LEAVES } from './meta-schema-sources.generated.js';

/**
 * Keys that make a schema depend on more than itself (identifiers, anchors, dynamic references) or change
 * how ajv compiles it (`$async`, a nested `$schema`). Looked for anywhere in the schema, property names
 * included: a false alarm only costs one compilation at registration. A plain `$ref` is checked where it
 * is a keyword: see `resolveLocally`.
 */
const WHOLE_SCHEMA_KEYS = new Set([
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$async',
  '$schema',
]);

/** How a keyword holds subschemas: one, a list (or, for `items`, one or a list), or a map of names to them. */
const SUBSCHEMAS: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ['additionalItems', 'one'],
  ['additionalProperties', 'one'],
  ['contains', 'one'],
  ['contentSchema', 'one'],
  ['else', 'one'],
  ['if', 'one'],
  ['not', 'one'],
  ['propertyNames', 'one'],
  ['then', 'one'],
  ['unevaluatedItems', 'one'],
  ['unevaluatedProperties', 'one'],
  ['items', 'list'],
  ['allOf', 'list'],
  ['anyOf', 'list'],
  ['oneOf', 'list'],
  ['prefixItems', 'list'],
  // Definitions are checked too, though ajv only compiles what is referenced: a false alarm costs a compile.
  ['$defs', 'map'],
  ['definitions', 'map'],
  // `dependencies` maps to subschemas or to lists of names; lists are skipped below.
  ['dependencies', 'map'],
  ['dependentSchemas', 'map'],
  ['patternProperties', 'map'],
  ['properties', 'map'],
]);

const JSON_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const MAX_DEPTH = 100;

/** Keyword → the JSON types ajv accepts for its value (ajv's keyword definitions' `schemaType`). */
type Rules = ReadonlyMap<string, readonly string[]>;

/**
 * Keywords whose mere presence calls for the keyword-by-keyword walk of a schema the meta-schema accepted:
 * those it checks (`mayFailToCompile`'s switch), and those whose value type the meta-schema leaves to ajv.
 * Without any of them (most real schemas), the walk could only find what the meta-schema already refused.
 */
const WALKED_KEYS: ReadonlySet<string> = new Set(['$ref', 'id', 'enum', 'nullable', 'pattern', 'patternProperties']);

interface DraftRules {
  readonly rules: Rules;
  readonly walkedKeys: ReadonlySet<string>;
}

const rulesByDraft = new Map<Draft, DraftRules>();

function rulesOf(draft: Draft): DraftRules {
  let rules = rulesByDraft.get(draft);
  if (rules === undefined) {
    rules = {
      rules: new Map(Object.entries(KEYWORD_SCHEMA_TYPES[draft])),
      walkedKeys: new Set([...WALKED_KEYS, ...KEYWORDS_THE_META_SCHEMA_LEAVES[draft]]),
    };
    rulesByDraft.set(draft, rules);
  }
  return rules;
}

/**
 * Whether a schema that passed ajv's meta-schema check must still be compiled at registration, because
 * compiling it could fail or depends on other schemas. The answer over-approximates: every way ajv 8 fails
 * to compile a meta-valid schema under the catalogue's options (`strict: false`) is caught here, and some
 * schemas that would compile are sent to the compiler too. What it catches:
 * - references and identifiers (a `$ref` may not resolve; an `$id` may clash with another tool's);
 * - a `pattern` or `patternProperties` key that is not a valid `u`-flag regular expression (the meta-schema
 *   does not check them; ajv builds the RegExp while compiling);
 * - a keyword value of a type ajv's keyword definition refuses (`nullable: "yes"`), which the meta-schema
 *   does not cover for keywords outside the draft;
 * - `nullable` without `type`, or `nullable: false` with a `null` type; the keyword `id` (ajv refuses it);
 *   an empty `enum`; a `type` that is not a JSON type; nesting deeper than any real catalogue's.
 *
 * A type the meta-schema already enforces (a draft's own keywords, `type` itself) needs no walk: one scan of
 * the keys tells whether any keyword the walk looks at is there at all, and the walk runs only then.
 *
 * The catalogue's tests compile every schema of the corpus and a set of broken ones both ways and compare.
 */
export function needsCompileNow(schema: object, draft: Draft): boolean {
  const { rules, walkedKeys } = rulesOf(draft);
  const found = scanKeys(schema, 0, walkedKeys);
  if (found !== FOUND_WALKED_KEY) return found === FOUND_WHOLE_SCHEMA_KEY;
  return mayFailToCompile(schema, { root: schema, rules, followed: new Set() }, 0);
}

/**
 * Whether the schema has a key that makes ajv's compile depend on more than the schema itself (an `$id`, an
 * anchor, `$async`, a nested `$schema`…). ajv reads identifiers and anchors before its meta-schema check, and
 * may throw on them first: a schema with one is always left to ajv.
 */
export function dependsOnMoreThanItself(schema: object): boolean {
  return scanKeys(schema, 0, undefined) === FOUND_WHOLE_SCHEMA_KEY;
}

const FOUND_NOTHING = 0;
const FOUND_WALKED_KEY = 1;
const FOUND_WHOLE_SCHEMA_KEY = 2;
type Found = typeof FOUND_NOTHING | typeof FOUND_WALKED_KEY | typeof FOUND_WHOLE_SCHEMA_KEY;

/**
 * One look at every key of the value, at any depth: a WHOLE_SCHEMA_KEYS key (or nesting deeper than the walk
 * goes) settles it; otherwise, whether any of `walked` is there.
 */
function scanKeys(value: unknown, depth: number, walked: ReadonlySet<string> | undefined): Found {
  if (value === null || typeof value !== 'object') return FOUND_NOTHING;
  if (depth > MAX_DEPTH) return FOUND_WHOLE_SCHEMA_KEY;
  let found: Found = FOUND_NOTHING;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const inner = scanKeys(value[index], depth + 1, walked);
      if (inner === FOUND_WHOLE_SCHEMA_KEY) return inner;
      if (inner === FOUND_WALKED_KEY) found = inner;
    }
    return found;
  }
  const object = value as Readonly<Record<string, unknown>>;
  // Indexed loops over `Object.keys` rather than `for…of`/`for…in`: cheaper on these many-shaped objects
  // before the JIT has optimised the walk, which is all a catalogue's registration ever sees of it.
  const keys = Object.keys(object);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    // The root's own `$schema` picked the ajv instance and was checked by the meta-schema.
    if (key.charCodeAt(0) === DOLLAR && WHOLE_SCHEMA_KEYS.has(key) && !(depth === 0 && key === '$schema')) {
      return FOUND_WHOLE_SCHEMA_KEY;
    }
    if (walked?.has(key)) found = FOUND_WALKED_KEY;
    const inner = scanKeys(object[key], depth + 1, walked);
    if (inner === FOUND_WHOLE_SCHEMA_KEY) return inner;
    if (inner === FOUND_WALKED_KEY) found = inner;
  }
  return found;
}

const DOLLAR = 36;

interface Walk {
  readonly root: object;
  readonly rules: Rules;
  /** Targets of `$ref`s already walked: a recursive schema refers back to where the walk came from. */
  readonly followed: Set<unknown>;
}

function mayFailToCompile(schema: unknown, walk: Walk, depth: number): boolean {
  if (typeof schema === 'boolean') return false;
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return true;
  const keywords = Object.keys(schema);
  for (let index = 0; index < keywords.length; index += 1) {
    const keyword = keywords[index] as string;
    const value = schema[keyword];
    const types = walk.rules.get(keyword);
    if (types !== undefined && !fitsKeywordType(types, value)) return true;
    switch (keyword) {
      case 'id':
        return true;
      case '$ref': {
        // ajv compiles the target as a schema wherever it sits (even a `properties` map), so it is walked too.
        const target = resolveLocally(walk.root, value);
        if (target === undefined) return true;
        if (!walk.followed.has(target)) {
          walk.followed.add(target);
          if (mayFailToCompile(target, walk, depth + 1)) return true;
        }
        break;
      }
      case 'enum':
        if (!Array.isArray(value) || value.length === 0) return true;
        break;
      case 'type':
        if (!typesAreValid(value)) return true;
        break;
      case 'nullable':
        if (!nullableCompiles(value, schema.type)) return true;
        break;
      case 'pattern':
        if (!isRegExp(value)) return true;
        break;
      case 'patternProperties':
        if (isPlainObject(value)) for (const pattern of Object.keys(value)) if (!isRegExp(pattern)) return true;
        break;
    }
    const holds = SUBSCHEMAS.get(keyword);
    if (holds === undefined || value === undefined) continue;
    if (holds === 'map') {
      if (!isPlainObject(value)) continue;
      const names = Object.keys(value);
      for (let at = 0; at < names.length; at += 1) {
        const child = value[names[at] as string];
        if (!Array.isArray(child) && mayFailToCompile(child, walk, depth + 1)) return true;
      }
    } else if (Array.isArray(value)) {
      if (holds === 'list') {
        for (let at = 0; at < value.length; at += 1) if (mayFailToCompile(value[at], walk, depth + 1)) return true;
      }
    } else if (mayFailToCompile(value, walk, depth + 1)) {
      return true;
    }
  }
  return false;
}

/** ajv's own check (`validSchemaType`): a keyword with a `schemaType` refuses a value of any other type. */
function fitsKeywordType(types: readonly string[], value: unknown): boolean {
  for (let index = 0; index < types.length; index += 1) {
    const type = types[index];
    if (type === 'array' ? Array.isArray(value) : type === 'object' ? isPlainObject(value) : typeof value === type) {
      return true;
    }
  }
  return false;
}

/**
 * The target of a reference ajv resolves inside the schema itself: a JSON pointer fragment (`#`, `#/$defs/address`) to an
 * object or boolean of the root. With no `$id` anywhere (see WHOLE_SCHEMA_KEYS) the base URI is the root's,
 * so ajv walks the same pointer (each segment URI-decoded, then `~1` → `/` and `~0` → `~`). Anything else
 * (a URL, an anchor, a missing target) is compiled at registration.
 */
function resolveLocally(root: object, ref: unknown): unknown {
  if (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/'))) return undefined;
  let target: unknown = root;
  for (const segment of ref === '#' ? [] : ref.slice(2).split('/')) {
    if (!isPlainObject(target) && !Array.isArray(target)) return undefined;
    let key: string;
    try {
      key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!Object.hasOwn(target, key)) return undefined;
    target = (target as Readonly<Record<string, unknown>>)[key];
  }
  return typeof target === 'boolean' || isPlainObject(target) ? target : undefined;
}

function typesAreValid(type: unknown): boolean {
  if (type === undefined) return true;
  if (!Array.isArray(type)) return typeof type === 'string' && JSON_TYPES.has(type);
  for (let index = 0; index < type.length; index += 1) {
    const entry: unknown = type[index];
    if (typeof entry !== 'string' || !JSON_TYPES.has(entry)) return false;
  }
  return true;
}

function nullableCompiles(nullable: unknown, type: unknown): boolean {
  if (typeof nullable !== 'boolean') return false;
  const types = type === undefined ? [] : Array.isArray(type) ? type : [type];
  if (types.length === 0) return false;
  return !(nullable === false && types.includes('null'));
}

function isRegExp(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
