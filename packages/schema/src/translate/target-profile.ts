import type { SchemaTarget } from '../schema-target.js';

/**
 * What one provider dialect can say, as data: the walker in translate-node.ts asks the profile instead of
 * branching on the target name, so adding a dialect is adding a profile.
 */
export interface TargetProfile {
  readonly target: Exclude<SchemaTarget, 'openai'>;
  /** `defs`: recursive targets move into `$defs`; `unroll`: inlined to a fixed depth (no `$ref` at all). */
  readonly recursion: 'defs' | 'unroll';
  /** `keyword`: OpenAPI `nullable: true`; `type-list`: `type: [t, "null"]` / an `anyOf` null branch. */
  readonly nullable: 'keyword' | 'type-list';
  /** How a value the dialect cannot describe (any JSON, an object with arbitrary keys) is declared. */
  readonly freeForm: 'json-string' | 'any-type-list' | 'empty-schema';
  /** Annotation keywords kept as they are (`description` always is). */
  readonly annotations: ReadonlySet<string>;
  /** Validation keywords kept as they are, per JSON type. Everything else moves into the description. */
  readonly stringKeywords: ReadonlySet<string>;
  readonly numberKeywords: ReadonlySet<string>;
  readonly arrayKeywords: ReadonlySet<string>;
  readonly objectKeywords: ReadonlySet<string>;
  /** Whether `format: f` may stay on a node of type `type`. */
  readonly keepsFormat: (type: string, format: string) => boolean;
  /** `strings`: enum only on strings (Gemini); `primitives`: any scalar values; `any`: objects too. */
  readonly enumValues: 'strings' | 'primitives' | 'any';
  /** Whether `const` stays; otherwise it becomes a one-value `enum`. */
  readonly keepsConst: boolean;
  readonly keepsPrefixItems: boolean;
  /** `exclusiveMinimum: x` → `minimum: x` (looser) where the dialect has no exclusive bounds. */
  readonly exclusiveBoundsAsInclusive: boolean;
  /** `keep`: any value; `false-only`: only `false` survives; `none`: the keyword does not exist. */
  readonly additionalProperties: 'keep' | 'false-only' | 'none';
  /** OpenAI strict: every object closed, every property required (optional ⇒ nullable). */
  readonly strictObjects: boolean;
  readonly keepsMinItems: (value: number) => boolean;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Gemini `parameters`: the OpenAPI 3.0 subset in wire-formats.md (type, format, title, description,
 * nullable, enum (strings), items, min/maxItems, min/maxLength, pattern, minimum/maximum, properties,
 * required, min/maxProperties, anyOf, default). Formats: the API answers "only 'enum' and 'date-time' are
 * supported for STRING type" (issue threads), int32/int64 for INTEGER, float/double for NUMBER.
 */
export const GEMINI_PROFILE: TargetProfile = {
  target: 'gemini',
  recursion: 'unroll',
  nullable: 'keyword',
  freeForm: 'json-string',
  annotations: new Set(['title', 'default']),
  stringKeywords: new Set(['minLength', 'maxLength', 'pattern']),
  numberKeywords: new Set(['minimum', 'maximum']),
  arrayKeywords: new Set(['minItems', 'maxItems']),
  objectKeywords: new Set(['minProperties', 'maxProperties']),
  keepsFormat: (type, format) =>
    (type === 'string' && format === 'date-time') ||
    (type === 'integer' && (format === 'int32' || format === 'int64')) ||
    (type === 'number' && (format === 'float' || format === 'double')),
  enumValues: 'strings',
  keepsConst: false,
  keepsPrefixItems: false,
  exclusiveBoundsAsInclusive: true,
  additionalProperties: 'none',
  strictObjects: false,
  keepsMinItems: () => true,
};

/**
 * Gemini `parametersJsonSchema`: real JSON Schema. Kept: the keywords Gemini documents for JSON Schema
 * (types, $defs/$ref, anyOf, enum, format, bounds, lengths, pattern, items/prefixItems, additionalProperties);
 * `const` becomes a one-value enum and `oneOf` an `anyOf` because both are documented less clearly.
 */
export const GEMINI_JSON_SCHEMA_PROFILE: TargetProfile = {
  target: 'gemini-json-schema',
  recursion: 'defs',
  nullable: 'type-list',
  freeForm: 'empty-schema',
  annotations: new Set(['title', 'default']),
  stringKeywords: new Set(['minLength', 'maxLength', 'pattern']),
  numberKeywords: new Set(['minimum', 'maximum']),
  arrayKeywords: new Set(['minItems', 'maxItems']),
  objectKeywords: new Set(['minProperties', 'maxProperties']),
  keepsFormat: () => true,
  enumValues: 'primitives',
  keepsConst: false,
  keepsPrefixItems: true,
  exclusiveBoundsAsInclusive: true,
  additionalProperties: 'keep',
  strictObjects: false,
  keepsMinItems: () => true,
};

/**
 * OpenAI strict mode. Kept deliberately small: type, properties, required, additionalProperties:false,
 * items, enum, anyOf, $ref/$defs, description, title. Pattern, format and numeric/length bounds are
 * documented for some models only (the Python SDK strips them for gpt-5 models), so they move into the
 * description; the executor enforces them anyway.
 */
export const OPENAI_STRICT_PROFILE: TargetProfile = {
  target: 'openai-strict',
  recursion: 'defs',
  nullable: 'type-list',
  freeForm: 'json-string',
  annotations: new Set(['title']),
  stringKeywords: NONE,
  numberKeywords: NONE,
  arrayKeywords: NONE,
  objectKeywords: NONE,
  keepsFormat: () => false,
  enumValues: 'primitives',
  keepsConst: false,
  keepsPrefixItems: false,
  exclusiveBoundsAsInclusive: false,
  additionalProperties: 'false-only',
  strictObjects: true,
  keepsMinItems: () => false,
};

/** String formats Anthropic's strict subset keeps (the official TypeScript SDK's transform-json-schema.ts). */
const ANTHROPIC_STRING_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Anthropic `input_schema`, kept inside the strict-mode subset the official SDK produces (types,
 * $defs/$ref, anyOf/allOf, enum, const, listed string formats, minItems 0/1, additionalProperties false);
 * other keywords move into the description. Open objects stay open: this is for the default non-strict
 * tool use, where closing them would be stricter than the catalogue.
 */
export const ANTHROPIC_PROFILE: TargetProfile = {
  target: 'anthropic',
  recursion: 'defs',
  nullable: 'type-list',
  freeForm: 'any-type-list',
  annotations: new Set(['title']),
  stringKeywords: NONE,
  numberKeywords: NONE,
  arrayKeywords: NONE,
  objectKeywords: NONE,
  keepsFormat: (type, format) => type === 'string' && ANTHROPIC_STRING_FORMATS.has(format),
  enumValues: 'primitives',
  keepsConst: true,
  keepsPrefixItems: false,
  exclusiveBoundsAsInclusive: false,
  additionalProperties: 'false-only',
  strictObjects: false,
  keepsMinItems: (value) => value === 0 || value === 1,
};
