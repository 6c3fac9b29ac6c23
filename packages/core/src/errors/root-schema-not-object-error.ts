import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * Every provider sends tool arguments as one JSON object, and Anthropic rejects a root schema without
 * `type: "object"`; a root of another type can never be satisfied, so it is refused at registration.
 */
export class RootSchemaNotObjectError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'root_schema_not_object' as const;
  readonly toolName: string;
  /** What the root is instead (`no "type"`, `type "array"`…). */
  readonly found: string;

  constructor(toolName: string, found: string) {
    super(
      `The input schema of tool "${toolName}" must describe an object at its root (found ${found}). ` +
        'Set `type: "object"` on the root and put the arguments under `properties`; wrap a single value ' +
        'in a property, e.g. { type: "object", properties: { value: <your schema> }, required: ["value"] }.',
    );
    this.toolName = toolName;
    this.found = found;
  }
}
