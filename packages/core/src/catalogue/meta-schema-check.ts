import { createRequire } from 'node:module';
import type { Draft } from './load-ajv.js';
import { META_SCHEMA_IDS, META_SCHEMA_SOURCES } from './meta-schema-sources.generated.js';

/** What ajv's meta-schema validator reports: only the fields its error text reads. */
interface MetaSchemaError {
  readonly instancePath: string;
  readonly message?: string;
}

type MetaSchemaValidator = ((schema: unknown) => boolean) & { errors?: readonly MetaSchemaError[] | null };

/**
 * The meta-schema check ajv runs first when it compiles a schema, without loading ajv: the validator code
 * ajv generates for each draft's meta-schema under the catalogue's options, generated ahead of time
 * (meta-schema-sources.generated.ts) and compiled here on first use, once per process. Returns `valid`, ajv's
 * own "schema is invalid: …" text, or `unknown` for a `$schema` the generated code does not stand for (ajv
 * then decides). The text is ajv's `errorsText` over the same errors, so a refusal reads exactly as before.
 */
export function checkMetaSchema(draft: Draft, schema: Readonly<Record<string, unknown>>): 'valid' | 'unknown' | string {
  const declared = schema.$schema;
  if (declared !== undefined && !META_SCHEMA_IDS[draft].includes(declared as string)) return 'unknown';
  const validate = validatorFor(draft);
  if (validate(schema)) return 'valid';
  return `schema is invalid: ${errorsText(validate.errors ?? [])}`;
}

const validators = new Map<Draft, MetaSchemaValidator>();

function validatorFor(draft: Draft): MetaSchemaValidator {
  let validate = validators.get(draft);
  if (validate === undefined) {
    // The code's one runtime helper, as ajv's standalone code requires it (ajv's copy of fast-deep-equal:
    // two small modules, not ajv itself).
    const equal = (createRequire(import.meta.url)('ajv/dist/runtime/equal') as { default: unknown }).default;
    // Compiled the way ajv compiles every validator it makes (`new Function`).
    validate = new Function('equal', META_SCHEMA_SOURCES[draft].join('\n'))(equal) as MetaSchemaValidator;
    validators.set(draft, validate);
  }
  return validate;
}

/** ajv's `errorsText` with its defaults (`dataVar` "data", separator ", "). */
function errorsText(errors: readonly MetaSchemaError[]): string {
  if (errors.length === 0) return 'No errors';
  return errors.map((error) => `data${error.instancePath} ${error.message}`).join(', ');
}
