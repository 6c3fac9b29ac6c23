import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { type Eventually, isPromiseLike } from '../async/eventually.js';
import { SchemaCompileError } from '../errors/schema-compile-error.js';
import type { JsonObject } from '../json/json.js';
import { type AjvInstance, createAjv, type Draft } from './load-ajv.js';
import { checkMetaSchema } from './meta-schema-check.js';
import { dependsOnMoreThanItself, needsCompileNow } from './needs-compile-now.js';
import {
  ajvIssues,
  renderAjvErrors,
  renderStandardIssues,
  standardIssues,
  type ValidationIssue,
} from './render-validation-errors.js';

/**
 * The outcome of checking one input: the value the tool receives, or one sentence for the model and the
 * issues it was made from (empty when the value could not be checked at all).
 */
export type InputValidation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly issues: readonly ValidationIssue[] };

/** A JSON Schema answers at once; a Standard Schema answers at once or, if its library is async, later. */
export type InputValidator = (input: unknown) => Eventually<InputValidation>;

/**
 * Compiles JSON Schemas for ONE catalogue. Each draft gets its own ajv instance, created on first use.
 * `$schema` picks the draft (real catalogues mix draft-07 and 2020-12); no `$schema` means draft-07, what
 * MCP servers and most tool lists assume.
 *
 * A schema is compiled on its tool's first call, not at registration: compiling costs ≈ 1–2 ms a schema
 * (code generation), which made a catalogue of thousands of tools take seconds while most tools of a big
 * catalogue are never called. Registration still refuses exactly what compiling would refuse, with the
 * same message: it runs ajv's meta-schema check (the first step of ajv's own compile, as code ajv generated
 * ahead of time, hence the same "schema is invalid: …" text without loading ajv), and compiles at once every
 * schema `needsCompileNow` cannot clear (one with references or identifiers, a suspicious regular
 * expression, keyword or `nullable`): then the error is ajv's own. ajv itself loads on the first compile.
 *
 * `strict: false` because real schemas carry unknown keywords (`example_value`, vendor extensions) that are
 * harmless; a schema that is actually broken (bad `type`, unresolvable `$ref`, unknown meta-schema) still
 * fails and is reported with the tool's name.
 */
export function createSchemaCompiler(): (toolName: string, schema: JsonObject) => InputValidator {
  const instances = new Map<Draft, AjvInstance>();
  const instanceFor = (draft: Draft): AjvInstance => {
    const existing = instances.get(draft);
    if (existing !== undefined) return existing;
    const created = createAjv(draft, AJV_OPTIONS);
    instances.set(draft, created);
    return created;
  };

  return (toolName, schema) => {
    const draft = draftOf(toolName, schema.$schema);
    if (!clearedWithoutCompiling(toolName, draft, schema))
      return validatorOf(toolName, compile(instanceFor(draft), toolName, schema));
    let validate: ValidateFunction | undefined;
    let failure: InputValidation | undefined;
    return (input) => {
      if (failure !== undefined) return failure;
      if (validate === undefined) {
        try {
          validate = compile(instanceFor(draft), toolName, schema);
        } catch (error) {
          // Not expected: registration clears only schemas that compile (the catalogue tests prove it on the
          // corpus). Should it happen, the model gets a refusal it can read, and the run goes on.
          failure = {
            ok: false,
            message: `The tool "${toolName}" cannot check its arguments: ${error instanceof Error ? error.message : String(error)}`,
            issues: [],
          };
          return failure;
        }
      }
      return check(toolName, validate, input);
    };
  };
}

/** The options of every compile; scripts/generate-meta-schema-sources.mjs generates the meta-schema check with them. */
const AJV_OPTIONS = { strict: false, allErrors: true, verbose: true, logger: false } as const;

/**
 * True when ajv would compile the schema and nothing in it needs compiling now; throws ajv's own refusal when
 * the schema fails its meta-schema; false when ajv must decide now (its compile then refuses or accepts).
 * ajv itself is not loaded here: the meta-schema check is ajv's generated code (see `checkMetaSchema`).
 */
function clearedWithoutCompiling(toolName: string, draft: Draft, schema: JsonObject): boolean {
  let meta: string;
  try {
    meta = checkMetaSchema(draft, schema);
  } catch {
    // Nesting too deep for the validator's recursion, for one: compiling reports it with ajv's own message.
    return false;
  }
  if (meta === 'unknown') return false;
  if (meta !== 'valid') {
    // ajv reads identifiers and anchors before the meta-schema, and may refuse them first.
    if (dependsOnMoreThanItself(schema)) return false;
    throw new SchemaCompileError(toolName, meta);
  }
  return !needsCompileNow(schema, draft);
}

function compile(ajv: AjvInstance, toolName: string, schema: JsonObject): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new SchemaCompileError(toolName, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

function validatorOf(toolName: string, validate: ValidateFunction): InputValidator {
  return (input) => check(toolName, validate, input);
}

function check(toolName: string, validate: ValidateFunction, input: unknown): Eventually<InputValidation> {
  try {
    const valid: unknown = validate(input);
    // A schema with `$async: true` compiles to a validator that answers with a promise (rejected with the
    // errors): a promise is truthy, so it must be awaited, never read as a verdict.
    if (isPromiseLike(valid)) {
      return Promise.resolve(valid).then(
        (): InputValidation => ({ ok: true, value: input }),
        (error: unknown): InputValidation =>
          ajvFailure(toolName, (error as { errors?: ErrorObject[] } | null)?.errors ?? []),
      );
    }
    if (valid === true) return { ok: true, value: input };
    return ajvFailure(toolName, validate.errors ?? []);
  } catch {
    // A recursive schema can recurse as deep as the data; a hostile input must not crash the circuit.
    return {
      ok: false,
      message: `The arguments for tool "${toolName}" could not be checked (they are nested too deeply). Send a flatter, smaller input.`,
      issues: [{ path: [], message: 'is nested too deeply to be checked' }],
    };
  }
}

/** Validation through the schema library's own `~standard.validate`: the user's schema stays the truth. */
export function standardSchemaValidator(toolName: string, schema: StandardSchemaV1): InputValidator {
  const unchecked: InputValidation = {
    ok: false,
    message: `The arguments for tool "${toolName}" could not be checked by its schema. Send simpler arguments that match the schema.`,
    issues: [{ path: [], message: 'could not be checked by the schema' }],
  };
  const verdict = (result: StandardSchemaV1.Result<unknown>): InputValidation =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, message: renderStandardIssues(toolName, result.issues), issues: standardIssues(result.issues) };
  return (input) => {
    try {
      const result = schema['~standard'].validate(input);
      return isPromiseLike(result) ? Promise.resolve(result).then(verdict, () => unchecked) : verdict(result);
    } catch {
      return unchecked;
    }
  };
}

function ajvFailure(toolName: string, errors: readonly ErrorObject[]): InputValidation {
  return { ok: false, message: renderAjvErrors(toolName, errors), issues: ajvIssues(errors) };
}

function draftOf(toolName: string, declared: unknown): Draft {
  if (declared === undefined) return 'draft-07';
  if (typeof declared !== 'string') throw new SchemaCompileError(toolName, '"$schema" must be a URL string');
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07')) return 'draft-07';
  throw new SchemaCompileError(
    toolName,
    `"$schema" is ${JSON.stringify(declared)}, a draft this circuit does not support (draft-07, 2019-09 and 2020-12 are)`,
  );
}
