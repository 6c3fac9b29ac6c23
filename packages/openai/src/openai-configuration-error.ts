import { ConfigurationError } from '@toolcircuit/core/provider';

export type OpenAIConfigurationErrorCode = 'missing_api_key' | 'invalid_option' | 'unknown_tool_choice';

/**
 * The developer's OpenAI setup is wrong. Raised while the model is built (missing key, empty model id) or
 * while a request is assembled (a named `toolChoice` that is not in the catalogue), never after a provider
 * call, so a bad setup fails before any traffic. `field` says what to fix (`OPENAI_API_KEY`, `model`,
 * `toolChoice`); the message never contains a key.
 */
export class OpenAIConfigurationError extends ConfigurationError {
  readonly code: OpenAIConfigurationErrorCode;

  constructor(provider: string, code: OpenAIConfigurationErrorCode, field: string, message: string) {
    super(field, `${provider}: ${message}`);
    this.code = code;
  }
}
