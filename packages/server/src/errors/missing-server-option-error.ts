import { ConfigurationError } from '@toolcircuit/core';

/** `createRunServer` was not given an option it cannot work without; `field` names it. */
export class MissingServerOptionError extends ConfigurationError {
  readonly code = 'missing_server_option' as const;

  constructor(field: string, fix: string) {
    super(field, `createRunServer needs the "${field}" option: ${fix}`);
  }
}
