import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { ChangeLog } from '../change-log.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { isJsonObject } from '../json-utils.js';
import { normalizeSchema } from '../normalize/normalize-schema.js';
import { createOriginalValidator } from '../restore/original-validator.js';
import type { SchemaChange } from '../schema-change.js';
import type { SchemaTarget } from '../schema-target.js';
import type { TranslatedSchema, TranslateOptions } from '../translated-schema.js';
import { exceededStrictLimit } from './check-strict-limits.js';
import { planNeedsRestore } from './plan-needs-restore.js';
import { type RestorePlan, SAME } from './restore-plan.js';
import { SchemaWalker } from './schema-walker.js';
import {
  ANTHROPIC_PROFILE,
  GEMINI_JSON_SCHEMA_PROFILE,
  GEMINI_PROFILE,
  OPENAI_STRICT_PROFILE,
  type TargetProfile,
} from './target-profile.js';
import { translateForOpenAI } from './translate-for-openai.js';

const PROFILES: Readonly<Record<Exclude<SchemaTarget, 'openai'>, TargetProfile>> = {
  anthropic: ANTHROPIC_PROFILE,
  'openai-strict': OPENAI_STRICT_PROFILE,
  gemini: GEMINI_PROFILE,
  'gemini-json-schema': GEMINI_JSON_SCHEMA_PROFILE,
};

interface CachedTranslation {
  readonly result: TranslatedSchema;
  readonly plan: RestorePlan;
}

/**
 * Where a provider takes a looser dialect PER TOOL (OpenAI's `strict` is a per-function flag; a Gemini
 * function declares either `parameters` or `parametersJsonSchema`), a tool the target's own dialect would
 * narrow is sent in that looser one instead: every valid input stays possible, and what is given up is named.
 */
const FALLBACKS: Readonly<Partial<Record<SchemaTarget, Fallback>>> = {
  'openai-strict': {
    dialect: 'openai',
    kind: 'strict-off',
    sent: 'sent with `strict: false` in the openai dialect',
    cost: "strict mode's guarantee that the arguments match the schema is lost for this tool (the executor still validates them)",
  },
  gemini: {
    dialect: 'gemini-json-schema',
    kind: 'json-schema-parameters',
    sent: 'declared with `parametersJsonSchema` (JSON Schema) instead of `parameters`',
    cost: 'the model needs parametersJsonSchema support (current Gemini models have it)',
  },
};

interface Fallback {
  readonly dialect: SchemaTarget;
  readonly kind: 'strict-off' | 'json-schema-parameters';
  readonly sent: string;
  readonly cost: string;
}

// Keyed by the caller's schema object: adapters translate a catalogue once per provider and the loop
// passes the same frozen declarations every turn, so identity is the right key.
const cache = new WeakMap<JsonObject, Map<string, CachedTranslation>>();

/**
 * Translate a tool's input schema for one provider target. The result is deep-frozen and cached per
 * schema object. Throws `SchemaTranslationError` (kind `configuration`) naming the tool, path and reason
 * when the schema cannot be expressed for that target.
 */
export function translateSchema(
  schema: JsonObject,
  target: SchemaTarget,
  options: TranslateOptions = {},
): TranslatedSchema {
  return translateWithPlan(schema, target, options).result;
}

/** @internal The translation and the plan `restoreProviderInput` follows. */
export function translateWithPlan(
  schema: JsonObject,
  target: SchemaTarget,
  options: TranslateOptions = {},
): CachedTranslation {
  const fallback = options.fallback === false ? undefined : FALLBACKS[target];
  const keepUndeclaredKeys = options.keepUndeclaredKeys === true;
  const key = `${target}${fallback === undefined ? '' : '+fallback'}${keepUndeclaredKeys ? '+undeclared' : ''}`;
  let perTarget = cache.get(schema);
  const cached = perTarget?.get(key);
  if (cached !== undefined) return cached;
  const computed =
    fallback === undefined
      ? compute(schema, target, options.toolName, keepUndeclaredKeys)
      : withFallback(schema, target, fallback, options.toolName, keepUndeclaredKeys);
  if (perTarget === undefined) {
    perTarget = new Map();
    cache.set(schema, perTarget);
  }
  perTarget.set(key, computed);
  return computed;
}

/** Changes after which some valid input cannot be sent or restored as it was. */
function losesInputs(changes: readonly SchemaChange[]): SchemaChange[] {
  return changes.filter((change) => change.narrows !== undefined || change.kind === 'ambiguous-restore');
}

/**
 * The target's own dialect when it keeps every valid input; otherwise the looser dialect, when that one
 * does (or when the own dialect refuses the schema and the looser one accepts it). When both lose inputs,
 * the target's own translation stays, with its narrowings logged.
 */
function withFallback(
  schema: JsonObject,
  target: SchemaTarget,
  fallback: Fallback,
  toolName: string | undefined,
  keepUndeclaredKeys: boolean,
): CachedTranslation {
  const named = toolName === undefined ? {} : { toolName };
  let own: CachedTranslation | undefined;
  let refusal: SchemaTranslationError | undefined;
  try {
    own = translateWithPlan(schema, target, { fallback: false, keepUndeclaredKeys, ...named });
  } catch (error) {
    if (!(error instanceof SchemaTranslationError)) throw error;
    refusal = error;
  }
  const lost = own === undefined ? [] : losesInputs(own.result.changes);
  if (own !== undefined && lost.length === 0) return own;
  let looser: CachedTranslation;
  try {
    looser = translateWithPlan(schema, fallback.dialect, named);
  } catch (error) {
    if (!(error instanceof SchemaTranslationError)) throw error;
    if (own !== undefined) return own;
    // The target's own refusal names the target the caller asked for.
    throw refusal ?? error;
  }
  if (own !== undefined && losesInputs(looser.result.changes).length > 0) return own;
  const why =
    refusal !== undefined
      ? `${target} refuses it (${refusal.reason} at ${refusal.path === '' ? '(root)' : refusal.path}: ${refusal.detail})`
      : `${target} would lose valid inputs (${lost
          .map(
            (change) =>
              `${change.path === '' ? '(root)' : change.path} ${change.kind}${change.narrows === undefined ? '' : `: ${change.narrows}`}`,
          )
          .join('; ')})`;
  const changes = new ChangeLog();
  changes.add('', fallback.kind, `${why}: ${fallback.sent}; ${fallback.cost}`);
  changes.addAll(looser.result.changes);
  const result: TranslatedSchema = { ...looser.result, changes: changes.toArray(), dialect: fallback.dialect };
  return { result: Object.freeze(result), plan: looser.plan };
}

function compute(
  schema: JsonObject,
  target: SchemaTarget,
  toolName: string | undefined,
  keepUndeclaredKeys: boolean,
): CachedTranslation {
  if (!isJsonObject(schema)) {
    throw new SchemaTranslationError({
      target,
      reason: 'invalid_schema',
      path: '',
      detail: 'the input schema is not an object',
      toolName,
    });
  }
  let normalized: ReturnType<typeof normalizeSchema>;
  try {
    normalized = normalizeSchema(schema, toolName === undefined ? {} : { toolName });
  } catch (error) {
    // Normalization does not know the target; name it here so the message is complete.
    if (error instanceof SchemaTranslationError && error.target === undefined) {
      throw new SchemaTranslationError({
        target,
        reason: error.reason,
        path: error.path,
        detail: error.detail,
        toolName,
      });
    }
    throw error;
  }
  const changes = new ChangeLog();
  changes.addAll(normalized.changes);

  if (target === 'openai') {
    const translated = translateForOpenAI(normalized.schema, changes, normalized.originalPath, toolName);
    return freezeResult({ schema: translated, changes: changes.toArray(), dialect: target }, SAME);
  }

  const walker = new SchemaWalker({
    root: normalized.schema,
    profile: PROFILES[target],
    changes,
    originalPath: normalized.originalPath,
    toolName,
    validator: createOriginalValidator(normalized.schema),
    keepUndeclaredKeys,
  });
  const walked = walker.walkRoot();
  if (target === 'openai-strict') {
    const exceeded = exceededStrictLimit(walked.schema);
    if (exceeded !== undefined) {
      throw new SchemaTranslationError({
        target,
        reason: exceeded.reason,
        path: '',
        detail: exceeded.detail,
        toolName,
      });
    }
  }
  const result: TranslatedSchema = {
    schema: walked.schema,
    changes: changes.toArray(),
    dialect: target,
    ...(walked.omitParameters ? { omitParameters: true } : {}),
    ...(planNeedsRestore(walked.plan) ? { requiresRestore: true } : {}),
  };
  return freezeResult(result, walked.plan);
}

function freezeResult(result: TranslatedSchema, plan: RestorePlan): CachedTranslation {
  deepFreeze(result.schema);
  return { result: Object.freeze(result), plan };
}

function deepFreeze(value: JsonValue): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
