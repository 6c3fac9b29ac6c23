import { ToolcircuitError } from '@toolcircuit/core/provider';
import type { SchemaTarget } from '../schema-target.js';

/**
 * Why a schema cannot be translated for a target. Each is a property of the CATALOGUE (the developer's
 * setup), never of the model, hence `kind: 'configuration'`.
 */
export type SchemaRefusalReason =
  | 'root_not_object'
  | 'free_form_root'
  | 'unknown_type'
  | 'invalid_schema'
  | 'unresolvable_ref'
  | 'too_deep'
  | 'too_many_properties'
  | 'too_many_enum_values';

export interface SchemaTranslationErrorInit {
  /** Undefined when the schema is unusable for every target (e.g. an unknown type name). */
  readonly target: SchemaTarget | undefined;
  readonly reason: SchemaRefusalReason;
  /** JSON pointer into the original schema. */
  readonly path: string;
  readonly detail: string;
  readonly toolName?: string | undefined;
}

/** A tool's input schema cannot be expressed for one provider target; the message names tool, path and reason. */
export class SchemaTranslationError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'schema_untranslatable' as const;
  readonly target: SchemaTarget | undefined;
  readonly reason: SchemaRefusalReason;
  readonly path: string;
  readonly detail: string;
  readonly toolName: string | undefined;

  constructor(init: SchemaTranslationErrorInit) {
    const tool = init.toolName === undefined ? 'a tool' : `tool "${init.toolName}"`;
    super(
      `Cannot translate the input schema of ${tool} for ${init.target ?? 'any provider'} at ${init.path === '' ? '(root)' : init.path}: ${init.reason}: ${init.detail}`,
    );
    this.target = init.target;
    this.reason = init.reason;
    this.path = init.path;
    this.detail = init.detail;
    this.toolName = init.toolName;
  }
}
