import { ToolcircuitError } from '@toolcircuit/core';

/**
 * The developer's model configuration is wrong. `field` names where (a config-file pointer such as
 * `/model/provider`, an env var, or the argument), and the message says what to write instead.
 */
export class ModelConfigurationError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code: 'unknown_provider' | 'invalid_model_spec' | 'invalid_config' | 'missing_api_key' | 'adapter_missing';
  readonly field: string;

  constructor(code: ModelConfigurationError['code'], field: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.field = field;
  }
}
