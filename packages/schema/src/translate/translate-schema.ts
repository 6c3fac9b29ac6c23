import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { ChangeLog } from '../change-log.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { isJsonObject } from '../json-utils.js';
import { normalizeSchema } from '../normalize/normalize-schema.js';
import { createOriginalValidator } from '../restore/original-validator.js';
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

// Keyed by the caller's schema object: adapters translate a catalogue once per provider and the loop
// passes the same frozen declarations every turn, so identity is the right key.
const cache = new WeakMap<JsonObject, Map<SchemaTarget, CachedTranslation>>();

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
  let perTarget = cache.get(schema);
  const cached = perTarget?.get(target);
  if (cached !== undefined) return cached;
  const computed = compute(schema, target, options.toolName);
  if (perTarget === undefined) {
    perTarget = new Map();
    cache.set(schema, perTarget);
  }
  perTarget.set(target, computed);
  return computed;
}

function compute(schema: JsonObject, target: SchemaTarget, toolName: string | undefined): CachedTranslation {
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
    return freezeResult({ schema: translated, changes: changes.toArray() }, SAME);
  }

  const walker = new SchemaWalker({
    root: normalized.schema,
    profile: PROFILES[target],
    changes,
    originalPath: normalized.originalPath,
    toolName,
    validator: createOriginalValidator(normalized.schema),
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
