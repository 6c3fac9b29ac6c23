import { ToolcircuitError } from './toolcircuit-error.js';

/** A schema value that is neither a JSON Schema object nor a Standard Schema that can describe itself as JSON Schema. */
export class UnsupportedSchemaError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'unsupported_schema' as const;
  readonly toolName: string;
  /** What is wrong, without the tool's name (e.g. for a run's output schema, which has none). */
  readonly detail: string;

  constructor(toolName: string, detail: string, options?: ErrorOptions) {
    super(
      `The input schema of tool "${toolName}" cannot be used: ${detail}. Pass a JSON Schema object, or a schema ` +
        'implementing both Standard Schema v1 and Standard JSON Schema v1 (for example Zod 4.2 or later).',
      options,
    );
    this.toolName = toolName;
    this.detail = detail;
  }
}
