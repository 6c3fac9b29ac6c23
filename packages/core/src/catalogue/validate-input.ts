import type { StandardSchemaV1 } from '@standard-schema/spec';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type Eventually, isPromiseLike } from '../async/eventually.js';
import { SchemaCompileError } from '../errors/schema-compile-error.js';
import type { JsonObject } from '../json/json.js';
import { renderAjvErrors, renderStandardIssues } from './render-validation-errors.js';

/** The outcome of checking one input: the value the tool receives, or one sentence for the model. */
export type InputValidation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/** A JSON Schema answers at once; a Standard Schema answers at once or, if its library is async, later. */
export type InputValidator = (input: unknown) => Eventually<InputValidation>;

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
type Draft = 'draft-07' | '2019-09' | '2020-12';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object in
// types but may be the function itself at run time (Node vs bundlers), hence the `default ?? module` trick.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: AjvInstance) => unknown;

/**
 * Compiles JSON Schemas for ONE catalogue. Each draft gets its own ajv instance, created on first use, and
 * every schema is compiled exactly once, at registration. `$schema` picks the draft (real catalogues mix
 * draft-07 and 2020-12); no `$schema` means draft-07, what MCP servers and most tool lists assume.
 *
 * `strict: false` because real schemas carry unknown keywords (`example_value`, vendor extensions) that are
 * harmless; a schema that is actually broken (bad `type`, unresolvable `$ref`, unknown meta-schema) still
 * fails to compile and is reported with the tool's name.
 */
export function createSchemaCompiler(): (toolName: string, schema: JsonObject) => InputValidator {
  const instances = new Map<Draft, AjvInstance>();
  const instanceFor = (draft: Draft): AjvInstance => {
    const existing = instances.get(draft);
    if (existing !== undefined) return existing;
    const options = { strict: false, allErrors: true, verbose: true, logger: false } as const;
    const created =
      draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    addFormats(created);
    instances.set(draft, created);
    return created;
  };

  return (toolName, schema) => {
    let validate: ValidateFunction;
    try {
      validate = instanceFor(draftOf(toolName, schema.$schema)).compile(schema);
    } catch (error) {
      throw new SchemaCompileError(toolName, error instanceof Error ? error.message : String(error), { cause: error });
    }
    return (input) => {
      try {
        if (validate(input)) return { ok: true, value: input };
        return { ok: false, message: renderAjvErrors(toolName, validate.errors ?? []) };
      } catch {
        // A recursive schema can recurse as deep as the data; a hostile input must not crash the circuit.
        return {
          ok: false,
          message: `The arguments for tool "${toolName}" could not be checked (they are nested too deeply). Send a flatter, smaller input.`,
        };
      }
    };
  };
}

/** Validation through the schema library's own `~standard.validate`: the user's schema stays the truth. */
export function standardSchemaValidator(toolName: string, schema: StandardSchemaV1): InputValidator {
  const unchecked: InputValidation = {
    ok: false,
    message: `The arguments for tool "${toolName}" could not be checked by its schema. Send simpler arguments that match the schema.`,
  };
  const verdict = (result: StandardSchemaV1.Result<unknown>): InputValidation =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, message: renderStandardIssues(toolName, result.issues) };
  return (input) => {
    try {
      const result = schema['~standard'].validate(input);
      return isPromiseLike(result) ? Promise.resolve(result).then(verdict, () => unchecked) : verdict(result);
    } catch {
      return unchecked;
    }
  };
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
