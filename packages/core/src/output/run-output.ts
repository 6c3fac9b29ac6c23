import { prepareSchema } from '../catalogue/prepare-schema.js';
import { createSchemaCompiler, type InputValidator } from '../catalogue/validate-input.js';
import { InvalidOutputSchemaError } from '../errors/invalid-output-schema-error.js';
import { RootSchemaNotObjectError } from '../errors/root-schema-not-object-error.js';
import { SchemaCompileError } from '../errors/schema-compile-error.js';
import { UnsupportedSchemaError } from '../errors/unsupported-schema-error.js';
import { jsonDigest } from '../json/canonical-json.js';
import type { OutputFormat } from '../messages/model.js';
import type { OutputOptions } from './output-options.js';

/** A run's `output` option, prepared once: what each request carries and how the answer is checked. */
export interface RunOutput {
  readonly format: OutputFormat;
  /** The validator tool inputs use, over the same schema (the Standard Schema's own, for one). */
  readonly validate: InputValidator;
  /** SHA-256 of the answer's JSON Schema (canonical JSON), journaled with the run's calls. */
  readonly schemaDigest: string;
}

export const DEFAULT_OUTPUT_NAME = 'final_answer';

/** Valid as an OpenAI `json_schema.name` and as a tool name on every provider: no renaming needed. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

// Keyed by the option object: a resumed run, a durable runner or a worker pool passes the same one again.
const prepared = new WeakMap<OutputOptions, RunOutput>();

/**
 * The run's output, prepared on first use and cached per option object. Throws
 * {@link InvalidOutputSchemaError} for a schema that cannot describe an answer, before anything is sent.
 */
export function runOutputOf(output: OutputOptions): RunOutput {
  const cached = prepared.get(output);
  if (cached !== undefined) return cached;
  if (output === null || typeof output !== 'object') {
    throw new InvalidOutputSchemaError(`\`output\` is ${output === null ? 'null' : typeof output}, not { schema }`);
  }
  const name = output.name ?? DEFAULT_OUTPUT_NAME;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InvalidOutputSchemaError(
      `\`output.name\` ${JSON.stringify(name)} is not 1 to 64 letters, digits, "_" or "-" (every provider accepts those)`,
    );
  }
  const { description, strict } = output;
  if (description !== undefined && typeof description !== 'string') {
    throw new InvalidOutputSchemaError('`output.description` is not a string');
  }
  if (strict !== undefined && typeof strict !== 'boolean') {
    throw new InvalidOutputSchemaError('`output.strict` is not true or false');
  }
  const { schema, validate } = preparedSchema(name, output.schema);
  const format: OutputFormat = Object.freeze({
    name,
    schema,
    strict: strict ?? true,
    ...(description === undefined ? {} : { description }),
  });
  const run: RunOutput = Object.freeze({ format, validate, schemaDigest: jsonDigest(schema) });
  prepared.set(output, run);
  return run;
}

/** The catalogue's own preparation, its errors told as the output's (they name no tool here). */
function preparedSchema(name: string, source: unknown): ReturnType<typeof prepareSchema> {
  if (source === undefined) throw new InvalidOutputSchemaError('`output.schema` is missing');
  try {
    return prepareSchema(name, source, createSchemaCompiler());
  } catch (error) {
    if (error instanceof RootSchemaNotObjectError) {
      throw new InvalidOutputSchemaError(`its root is not an object (found ${error.found})`, { cause: error });
    }
    if (error instanceof SchemaCompileError || error instanceof UnsupportedSchemaError) {
      throw new InvalidOutputSchemaError(error.detail, { cause: error });
    }
    throw error;
  }
}
