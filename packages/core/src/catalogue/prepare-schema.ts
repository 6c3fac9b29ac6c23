import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { RootSchemaNotObjectError } from '../errors/root-schema-not-object-error.js';
import { SchemaCompileError } from '../errors/schema-compile-error.js';
import { UnsupportedSchemaError } from '../errors/unsupported-schema-error.js';
import type { JsonObject } from '../json/json.js';
import { frozenJsonCopy, isPlainJson } from './frozen-json-copy.js';
import { isStandardToolSchema } from './tool.js';
import { type createSchemaCompiler, type InputValidator, standardSchemaValidator } from './validate-input.js';

/** Compiles a JSON Schema under a name (see `createSchemaCompiler`). */
export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;

/** A schema as the model is shown it (a frozen JSON Schema object) and the validator of values against it. */
export interface PreparedSchema {
  readonly schema: JsonObject;
  readonly validate: InputValidator;
}

/**
 * A JSON Schema or a Standard Schema, prepared once: what the model sees and how values are checked. Tool
 * inputs and a run's structured answer both go through it, so they are validated by the same code. Throws
 * `UnsupportedSchemaError`, `RootSchemaNotObjectError` or `SchemaCompileError` under `name`.
 */
export function prepareSchema(name: string, source: unknown, compile: SchemaCompiler): PreparedSchema {
  if (isStandardToolSchema(source)) {
    // The model sees the converter's JSON Schema; validation stays with the library (transforms, refinements).
    const schema = checkRoot(name, jsonCopy(name, convertStandardSchema(name, source)));
    return { schema, validate: standardSchemaValidator(name, source) };
  }
  // A root that is plain data and not an object schema is refused as its copy would be, without copying it
  // (a third of a real corpus's bytes can be such tools); `checkRoot` reads only the root of the copy.
  if (!declaresObjectRoot(source) && isPlainJson(source)) checkRoot(name, source);
  const schema = checkRoot(name, jsonCopy(name, source));
  return { schema, validate: compile(name, schema) };
}

function convertStandardSchema(toolName: string, schema: StandardSchemaV1): unknown {
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter === undefined || typeof converter.input !== 'function') {
    throw new UnsupportedSchemaError(
      toolName,
      `this ${schema['~standard'].vendor} schema implements Standard Schema but not Standard JSON Schema, so it cannot be shown to the model`,
    );
  }
  // draft-07 first: the widest-supported dialect among providers and catalogues; 2020-12 as a fallback.
  let firstError: unknown;
  for (const target of ['draft-07', 'draft-2020-12'] as const) {
    try {
      return converter.input({ target });
    } catch (error) {
      firstError ??= error;
    }
  }
  throw new UnsupportedSchemaError(
    toolName,
    `its ${schema['~standard'].vendor} schema could not be converted to JSON Schema (${firstError instanceof Error ? firstError.message : String(firstError)})`,
    { cause: firstError },
  );
}

function checkRoot(toolName: string, schema: unknown): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new RootSchemaNotObjectError(
      toolName,
      Array.isArray(schema) ? 'an array' : (JSON.stringify(schema) ?? String(schema)),
    );
  }
  const type = (schema as JsonObject).type;
  if (type !== 'object') {
    throw new RootSchemaNotObjectError(toolName, type === undefined ? 'no "type"' : `type ${JSON.stringify(type)}`);
  }
  return schema as JsonObject;
}

/** Whether the schema's own `type` is "object" (read without calling a getter: the copy calls it once). */
function declaresObjectRoot(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  return Object.getOwnPropertyDescriptor(schema, 'type')?.value === 'object';
}

/** A private, frozen JSON copy: the catalogue must not change if the caller later mutates the schema it passed. */
function jsonCopy(toolName: string, schema: unknown): unknown {
  if (typeof schema === 'boolean' || schema === null || typeof schema !== 'object') return schema;
  try {
    return frozenJsonCopy(schema);
  } catch (error) {
    throw new SchemaCompileError(toolName, 'it is not plain JSON data (it has a cycle or a BigInt)', { cause: error });
  }
}
