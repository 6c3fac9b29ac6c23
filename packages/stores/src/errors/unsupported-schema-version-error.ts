import { ToolcircuitError } from '@toolcircuit/core';

/** The database was migrated by a newer release of this package, whose schema this one does not know. */
export class UnsupportedSchemaVersionError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'unsupported_schema_version' as const;
  readonly found: number;
  readonly supported: number;

  constructor(found: number, supported: number) {
    super(
      `The store's schema is at version ${found}, newer than the ${supported} this release of @toolcircuit/stores ` +
        'knows. Upgrade @toolcircuit/stores on this worker; it did not touch the database.',
    );
    this.found = found;
    this.supported = supported;
  }
}
