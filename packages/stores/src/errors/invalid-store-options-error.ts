import { ToolcircuitError } from '@toolcircuit/core';

/** A store was opened with options that cannot work (no file, a schema name that is not an identifier…). */
export class InvalidStoreOptionsError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_store_options' as const;
  readonly option: string;

  constructor(option: string, problemAndFix: string) {
    super(`Store option "${option}" is invalid: ${problemAndFix}`);
    this.option = option;
  }
}
