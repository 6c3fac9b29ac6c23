export type { CatalogueTool } from './catalogue/catalogue-tool.js';
export { parseCatalogue } from './catalogue/parse-catalogue.js';
export { type CheckOptions, checkProviderSchema } from './checkers/check-provider-schema.js';
export type { ProviderViolation } from './checkers/provider-violation.js';
export { CatalogueFormatError } from './errors/catalogue-format-error.js';
export {
  type SchemaRefusalReason,
  SchemaTranslationError,
  type SchemaTranslationErrorInit,
} from './errors/schema-translation-error.js';
export { ToolNameError } from './errors/tool-name-error.js';
export { createToolNameMap, type ToolNameMap } from './names/create-tool-name-map.js';
export { TOOL_NAME_RULES, type ToolNameRule } from './names/tool-name-rules.js';
export type { NormalizedSchema } from './normalize/normalize-schema.js';
export {
  OUTPUT_TARGETS,
  type OutputTarget,
  type TranslatedOutputSchema,
} from './output/translated-output-schema.js';
export type { RestoreOptions } from './restore/restore-provider-input.js';
export type { SchemaChange, SchemaChangeKind } from './schema-change.js';
export {
  normalizeSchema,
  normalizeToolSchema,
  restoreProviderInput,
  restoreStrictInput,
  translateOutputSchema,
  translateSchema,
} from './schema-engine.js';
export { SCHEMA_TARGETS, type SchemaTarget } from './schema-target.js';
export {
  restoreTextInput,
  TEXT_INPUT_PARAMETER,
  type TextToolParameters,
  textToolArguments,
  textToolParameters,
} from './text/text-tool-parameters.js';
export { OPENAI_STRICT_LIMITS } from './translate/check-strict-limits.js';
export { RECURSION_UNROLL_DEPTH } from './translate/recursion-unroll-depth.js';
export type { TranslatedSchema, TranslateOptions } from './translated-schema.js';
