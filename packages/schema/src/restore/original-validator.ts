import { createRequire } from 'node:module';
import type { JsonObject } from '@toolcircuit/core';
import type { Ajv2020 as Ajv2020Class, Options } from 'ajv/dist/2020.js';
import { resolveLocalRef } from '../json-pointer.js';

type AjvInstance = Ajv2020Class;

/**
 * ajv (CommonJS) is required when a schema first needs it, not when the package is imported: most schemas
 * never restore by validation, and ajv is the larger part of an adapter's cold import otherwise.
 */
function createAjv2020(options: Options): AjvInstance {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (options: Options) => AjvInstance };
  // ajv-formats' `module.exports` is the plugin itself.
  const addFormats = require('ajv-formats') as (ajv: AjvInstance) => AjvInstance;
  return addFormats(new Ajv2020(options));
}

/** Answers whether a value is valid under the schema node at `pointer` of one original (normalized) schema. */
export type OriginalValidator = (pointer: string) => (value: unknown) => boolean;

const ROOT_ID = 'urn:toolcircuit:original';

/**
 * Validators for the subschemas of ONE original schema, for restoring by validation: the union branch a
 * provider-side value belongs to is the one whose ORIGINAL schema accepts the restored value. The ajv
 * instance is made on first use (most schemas never need it) and belongs to this schema alone, so it is
 * collected with the translation. A node ajv cannot compile answers `true` (undecided): the restore then
 * falls back to the value's shape, and the executor's own validation still decides.
 */
export function createOriginalValidator(root: JsonObject): OriginalValidator {
  let ajv: AjvInstance | undefined;
  let broken = false;
  const compiled = new Map<string, (value: unknown) => boolean>();
  const instance = (): AjvInstance | undefined => {
    if (ajv !== undefined || broken) return ajv;
    try {
      const created = createAjv2020({ strict: false, allErrors: false, logger: false, validateFormats: true });
      const { $schema: _dialect, $id: _id, id: _legacyId, ...rest } = root;
      created.addSchema({ ...rest, $id: ROOT_ID });
      ajv = created;
    } catch {
      broken = true;
    }
    return ajv;
  };
  return (pointer) => (value) => {
    let validate = compiled.get(pointer);
    if (validate === undefined) {
      validate = compileAt(instance(), root, pointer);
      compiled.set(pointer, validate);
    }
    try {
      return validate(value);
    } catch {
      // Deeply recursive data can overflow the validator: undecided.
      return true;
    }
  };
}

function compileAt(ajv: AjvInstance | undefined, root: JsonObject, pointer: string): (value: unknown) => boolean {
  const undecided = (): boolean => true;
  if (ajv === undefined) return undecided;
  try {
    if (resolveLocalRef(root, `#${encodePointer(pointer)}`) === undefined) return undecided;
    const validate = ajv.compile({ $ref: `${ROOT_ID}#${encodePointer(pointer)}` });
    return (value) => validate(value) === true;
  } catch {
    return undecided;
  }
}

/** A JSON pointer as a URI fragment (ajv resolves `$ref` fragments as URIs). */
function encodePointer(pointer: string): string {
  return pointer
    .split('/')
    .map((token) => encodeURIComponent(token))
    .join('/');
}
