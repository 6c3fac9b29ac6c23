import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * The developer's setup is wrong (a missing key, an unknown provider, an option that cannot work). Every
 * package's setup errors extend this, so an application can catch "fix your configuration" in one place;
 * `field` names what to change (an env var, an option, a config-file pointer) and the message never quotes
 * a secret.
 */
export abstract class ConfigurationError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly field: string;

  constructor(field: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.field = field;
  }
}
