import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * The loop's `output.schema` cannot describe a structured answer: it is not a JSON Schema object or a
 * Standard Schema that can describe itself, it does not compile, or its root is not an object (every
 * provider's structured mode, and the answer tool some of them use, take one JSON object).
 */
export class InvalidOutputSchemaError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_output_schema' as const;

  constructor(problem: string, options?: ErrorOptions) {
    super(
      `Loop option "output.schema" cannot be used: ${problem}. Pass a JSON Schema object whose root is ` +
        '`type: "object"` (wrap a list or a single value in a property), or a Standard Schema with Standard ' +
        'JSON Schema support (Zod 4.2 or later) of an object.',
      options,
    );
  }
}
