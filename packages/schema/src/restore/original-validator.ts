import type { JsonObject } from '@toolcircuit/core';
import * as ajv2020 from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { resolveLocalRef } from '../json-pointer.js';

type AjvInstance = InstanceType<typeof ajv2020.Ajv2020>;

// NodeNext + CommonJS packages: the class and the plugin may sit on `default` (toolchain.md).
const Ajv2020 = ajv2020.Ajv2020;
const addFormats = ((ajvFormats as unknown as { default?: unknown }).default ?? ajvFormats) as (
  ajv: AjvInstance,
) => AjvInstance;

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
      const created = new Ajv2020({ strict: false, allErrors: false, logger: false, validateFormats: true });
      addFormats(created);
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
