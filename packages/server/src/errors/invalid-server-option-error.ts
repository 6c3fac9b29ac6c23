import { ConfigurationError } from '@toolcircuit/core';

/** An option of `createRunServer` has a value it cannot use; `field` names it. */
export class InvalidServerOptionError extends ConfigurationError {
  readonly code = 'invalid_server_option' as const;

  constructor(field: string, problemAndFix: string) {
    super(field, `createRunServer option "${field}": ${problemAndFix}`);
  }
}
