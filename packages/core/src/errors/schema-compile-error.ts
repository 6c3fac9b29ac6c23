import { ToolcircuitError } from './toolcircuit-error.js';

/** A tool's input schema is not a valid JSON Schema (or could not be produced from a Standard Schema). */
export class SchemaCompileError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'schema_compile_error' as const;
  readonly toolName: string;
  /** What is wrong, without the tool's name (e.g. for a run's output schema, which has none). */
  readonly detail: string;

  constructor(toolName: string, detail: string, options?: ErrorOptions) {
    super(
      `The input schema of tool "${toolName}" does not compile: ${detail}. Fix the schema so that it is valid ` +
        'JSON Schema (draft-07 by default; set "$schema" to the 2019-09 or 2020-12 meta-schema URL to use those drafts).',
      options,
    );
    this.toolName = toolName;
    this.detail = detail;
  }
}
