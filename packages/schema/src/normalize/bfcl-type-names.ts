/**
 * Non-standard type names found in real catalogues (BFCL's Python/Java/JavaScript function docs) and the
 * JSON Schema type each means. `undefined` means "any value" (the `type` keyword is removed).
 * Mirrors BFCL's own GORILLA_TO_OPENAPI map, except `any` (BFCL says string; any value is the truth, and
 * the looser reading is the sound one: the executor validates against the original anyway).
 */
export const NON_STANDARD_TYPE_NAMES: ReadonlyMap<string, string | undefined> = new Map<string, string | undefined>([
  ['dict', 'object'],
  ['HashMap', 'object'],
  ['float', 'number'],
  ['double', 'number'],
  ['long', 'integer'],
  ['short', 'integer'],
  ['byte', 'integer'],
  ['Bigint', 'integer'],
  ['tuple', 'array'],
  ['list', 'array'],
  ['Array', 'array'],
  ['ArrayList', 'array'],
  ['String', 'string'],
  ['char', 'string'],
  ['Boolean', 'boolean'],
  ['any', undefined],
  ['Any', undefined],
  ['', undefined],
]);

export const JSON_SCHEMA_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
  'null',
]);
