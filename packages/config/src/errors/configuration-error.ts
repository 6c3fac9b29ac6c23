import { ConfigurationError } from '@toolcircuit/core';

/**
 * The developer's model configuration is wrong. `field` names where (a config-file pointer such as
 * `/model/provider`, an env var, or the argument), and the message says what to write instead.
 */
export class ModelConfigurationError extends ConfigurationError {
  readonly code: 'unknown_provider' | 'invalid_model_spec' | 'invalid_config' | 'missing_api_key' | 'adapter_missing';

  constructor(code: ModelConfigurationError['code'], field: string, message: string, options?: ErrorOptions) {
    super(field, message, options);
    this.code = code;
  }
}
