import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorObject } from 'ajv';

/** The model reads these sentences; more than this many problems is noise it cannot act on anyway. */
const MAX_PROBLEMS = 8;
const MAX_ECHO = 80;

/**
 * One thing wrong with a validated value: where (keys from the root; empty for the value itself) and what,
 * as a phrase that follows the place (`must be of type string, not number`). Nothing of the value is in it
 * beyond a short excerpt.
 */
export interface ValidationIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * Every ajv error of one validation as issues, without the umbrella errors of `anyOf`/`oneOf` (their
 * branches' errors say more).
 */
export function ajvIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  return errors.filter((error) => !isSummaryError(error, errors)).map(ajvIssue);
}

/** A Standard Schema (Zod, Valibot, ArkType…) failure as issues, each message clipped. */
export function standardIssues(issues: readonly StandardSchemaV1.Issue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((segment) => {
      const key = typeof segment === 'object' ? segment.key : segment;
      return typeof key === 'number' ? key : String(key);
    }),
    message: clip(issue.message),
  }));
}

/**
 * Renders every ajv error of one validation as ONE sentence the model can act on: which field, what is
 * wrong, and (where the schema says) what would be right. Nothing from the input itself is echoed beyond a
 * short excerpt, so a hostile input cannot balloon the reply.
 */
export function renderAjvErrors(toolName: string, errors: readonly ErrorObject[]): string {
  return sentence(
    toolName,
    ajvIssues(errors).map((issue) => `${describePath(issue.path)} ${issue.message}`),
  );
}

/** The same sentence for a Standard Schema (Zod, Valibot, ArkType…) validation failure. */
export function renderStandardIssues(toolName: string, issues: readonly StandardSchemaV1.Issue[]): string {
  return sentence(
    toolName,
    standardIssues(issues).map((issue) => `${describePath(issue.path)}: ${issue.message}`),
  );
}

/** Issues as one line each, `<where>: <what>`, the value itself called `root` ("the answer"…). */
export function issueLines(issues: readonly ValidationIssue[], root: string): string[] {
  const lines = [...new Set(issues.map((issue) => `${describePath(issue.path, root)}: ${issue.message}`))];
  const shown = lines.slice(0, MAX_PROBLEMS);
  const more = lines.length - shown.length;
  return more > 0 ? [...shown, `and ${more} more problem${more === 1 ? '' : 's'}`] : shown;
}

function sentence(toolName: string, problems: readonly string[]): string {
  const unique = [...new Set(problems)];
  const shown = unique.slice(0, MAX_PROBLEMS);
  const more = unique.length - shown.length;
  const list = shown.length === 0 ? 'it does not match the schema' : shown.join('; ');
  const tail = more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '';
  return (
    `The arguments for tool "${clip(toolName)}" are invalid: ${list}${tail}. ` +
    `Correct these arguments to match the tool's input schema and call "${clip(toolName)}" again.`
  );
}

function ajvIssue(error: ErrorObject): ValidationIssue {
  return { path: pointerToKeys(error.instancePath), message: ajvMessage(error) };
}

function ajvMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `is missing the required property "${clip(String(params.missingProperty))}"`;
    case 'additionalProperties': {
      const allowed = allowedProperties(error.parentSchema);
      const hint =
        allowed === undefined
          ? ''
          : allowed.length === 0
            ? ' (it takes no properties)'
            : ` (allowed: ${allowed.join(', ')})`;
      return `must not have the property "${clip(String(params.additionalProperty))}"; remove it${hint}`;
    }
    case 'type':
      return `must be of type ${String(params.type)}, not ${jsonTypeOf(error.data)}`;
    case 'enum':
      return `must be one of ${clip(JSON.stringify(params.allowedValues), 240)}`;
    case 'const':
      return `must be exactly ${clip(JSON.stringify(params.allowedValue), 240)}`;
    default:
      return `${clip(error.message ?? `fails the "${error.keyword}" rule`)}`;
  }
}

/** anyOf/oneOf failures come with their branches' errors; the umbrella error alone says nothing new. */
function isSummaryError(error: ErrorObject, all: readonly ErrorObject[]): boolean {
  if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return false;
  return all.some((other) => other !== error && other.schemaPath.startsWith(error.schemaPath));
}

function allowedProperties(parentSchema: unknown): string[] | undefined {
  if (parentSchema === null || typeof parentSchema !== 'object') return undefined;
  const properties = (parentSchema as { properties?: unknown }).properties;
  if (properties === undefined) return [];
  if (properties === null || typeof properties !== 'object') return undefined;
  const names = Object.keys(properties);
  return names.length > 20 ? [...names.slice(0, 20).map((name) => `"${name}"`), '…'] : names.map((name) => `"${name}"`);
}

function pointerToKeys(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** `items[0].name`, or "the input" for the root: readable for the model, unambiguous for a human. */
function describePath(keys: readonly PropertyKey[], root = 'the input'): string {
  if (keys.length === 0) return root;
  let path = '';
  for (const key of keys) {
    if (typeof key === 'number' || (typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key))) {
      path += `[${String(key)}]`;
    } else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) {
      path += path === '' ? key : `.${key}`;
    } else {
      path += `[${JSON.stringify(String(key))}]`;
    }
  }
  return `"${clip(path)}"`;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value === undefined) return 'missing';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function clip(text: string, max = MAX_ECHO): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
