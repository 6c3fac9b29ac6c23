import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { isJsonObject } from '../json-utils.js';
import { normalizeSchema } from '../normalize/normalize-schema.js';
import {
  ARRAY_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from '../normalize/subschema-keywords.js';
import type { SchemaChange } from '../schema-change.js';
import { findRecursiveRefs, subschemasOf } from '../translate/find-recursive-refs.js';
import { translateSchema } from '../translate/translate-schema.js';
import type { TranslatedSchema } from '../translated-schema.js';
import type { OutputTarget, TranslatedOutputSchema } from './translated-output-schema.js';

// Keyed by the caller's schema object, like `translateSchema`: a run sends the same frozen format every turn.
const cache = new WeakMap<JsonObject, Map<OutputTarget, TranslatedOutputSchema>>();

/**
 * Translates a run's output schema (the structured answer) for one provider's structured mode, with the
 * same translator as tool schemas, and says how the provider carries it:
 *
 * - `openai-strict` / `openai` (Chat `response_format`, Responses `text.format`, `json_schema`): the tool
 *   translation; `strict` is kept unless strict mode would narrow the answer (then `strict-off`, as tools).
 * - `anthropic` (`output_config.format`): Anthropic's structured outputs take only closed objects and no
 *   recursion. Objects that leave `additionalProperties` out are closed: they declare their keys, and keys
 *   nobody declared are no part of an answer anyone can read (`closed-implicit-object` at the root, as
 *   `openai-strict` logs it, without `narrows`). A schema with an object open to
 *   undeclared keys (a map, `additionalProperties: true`, `patternProperties`) or with recursion is carried
 *   by the answer tool instead (`carrier: 'tool'`, the plain `anthropic` translation): nothing is narrowed.
 * - `gemini-json-schema` (`responseJsonSchema`): the tool translation.
 *
 * Throws `SchemaTranslationError` as `translateSchema` does. Cached per schema object and target.
 */
export function translateOutputSchema(
  schema: JsonObject,
  target: OutputTarget,
  options: { readonly name?: string } = {},
): TranslatedOutputSchema {
  let perTarget = cache.get(schema);
  const cached = perTarget?.get(target);
  if (cached !== undefined) return cached;
  const translated = translateSchema(schema, target, options.name === undefined ? {} : { toolName: options.name });
  const result = Object.freeze(target === 'anthropic' ? forAnthropic(schema, translated) : carried(translated));
  if (perTarget === undefined) {
    perTarget = new Map();
    cache.set(schema, perTarget);
  }
  perTarget.set(target, result);
  return result;
}

function carried(translated: TranslatedSchema): TranslatedOutputSchema {
  return { ...translated, carrier: 'native', strict: translated.dialect === 'openai-strict' };
}

function forAnthropic(original: JsonObject, translated: TranslatedSchema): TranslatedOutputSchema {
  const objects = objectNodes(translated.schema);
  // Openness is read in the original: the Anthropic translation drops `additionalProperties` schemas.
  const open =
    objectNodes(normalizeSchema(original).schema).some(acceptsUndeclaredKeys) ||
    objects.some((node) => !isJsonObject(node.properties) && node.additionalProperties !== false);
  if (open || findRecursiveRefs(translated.schema).size > 0) {
    return { ...translated, carrier: 'tool', strict: false };
  }
  const closing = objects.filter((node) => node.additionalProperties === undefined).length;
  if (closing === 0) return { ...translated, carrier: 'native', strict: true };
  const change: SchemaChange = {
    path: '',
    kind: 'closed-implicit-object',
    keyword: 'additionalProperties',
    detail: `Anthropic structured outputs take closed objects only: ${closing} object${closing === 1 ? '' : 's'} that left additionalProperties out ${closing === 1 ? 'was' : 'were'} closed`,
  };
  return {
    ...translated,
    schema: closedObjects(translated.schema),
    changes: [...translated.changes, change],
    carrier: 'native',
    strict: true,
  };
}

/** Every object node of a schema (one with `type: "object"` or `properties`), `$defs` included. */
function objectNodes(root: JsonObject): JsonObject[] {
  const found: JsonObject[] = [];
  const visit = (node: JsonValue, pointer: string): void => {
    if (!isJsonObject(node)) return;
    if (isObjectNode(node)) found.push(node);
    for (const [child, childPointer] of subschemasOf(node, pointer)) visit(child, childPointer);
  };
  visit(root, '');
  return found;
}

/**
 * An object open to keys it does not declare: `additionalProperties` true or a schema, `patternProperties`,
 * or no `properties` at all (a free-form map). Closing it would lose declared-by-rule keys.
 */
function acceptsUndeclaredKeys(node: JsonObject): boolean {
  if (node.additionalProperties === false) return false;
  return node.additionalProperties !== undefined || 'patternProperties' in node || !isJsonObject(node.properties);
}

function isObjectNode(node: JsonObject): boolean {
  const type = node.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isJsonObject(node.properties);
}

/** A copy with `additionalProperties: false` on every object node that left it out, walked by keyword. */
function closedObjects(node: JsonObject): JsonObject {
  const copy: Record<string, JsonValue> = {};
  for (const [keyword, value] of Object.entries(node)) copy[keyword] = closedIn(keyword, value);
  if (isObjectNode(node) && node.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** A keyword's value with its subschemas closed; any other value (`enum`, `required`…) as it is. */
function closedIn(keyword: string, value: JsonValue): JsonValue {
  if (SINGLE_SUBSCHEMA_KEYWORDS.has(keyword)) {
    if (Array.isArray(value)) return value.map((item) => (isJsonObject(item) ? closedObjects(item) : item));
    return isJsonObject(value) ? closedObjects(value) : value;
  }
  if (ARRAY_SUBSCHEMA_KEYWORDS.has(keyword) && Array.isArray(value)) {
    return value.map((item) => (isJsonObject(item) ? closedObjects(item) : item));
  }
  if (MAP_SUBSCHEMA_KEYWORDS.has(keyword) && isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, isJsonObject(item) ? closedObjects(item) : item]),
    );
  }
  return value;
}
