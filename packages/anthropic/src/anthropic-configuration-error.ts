import { ConfigurationError } from '@toolcircuit/core/provider';

export type AnthropicConfigurationErrorCode = 'missing_api_key' | 'invalid_option' | 'unknown_tool_choice';

/**
 * The developer's Anthropic setup is wrong: raised while the model is being built (or the request
 * assembled), never after a provider call, so a bad setup fails before any traffic. `field` says where
 * to fix it (`ANTHROPIC_API_KEY`, `maxTokens`, `toolChoice`); the message never contains a key.
 */
export class AnthropicConfigurationError extends ConfigurationError {
  readonly code: AnthropicConfigurationErrorCode;

  constructor(code: AnthropicConfigurationErrorCode, field: string, message: string) {
    super(field, `anthropic: ${message}`);
    this.code = code;
  }
}
