import { ConfigurationError } from '@toolcircuit/core/provider';

export type GoogleConfigurationErrorCode =
  | 'missing_api_key'
  | 'invalid_option'
  | 'unsupported_schema_target'
  | 'unknown_tool_choice'
  | 'sdk_missing';

/**
 * The Gemini adapter was set up in a way that cannot work: no API key, a schema target the chosen SDK
 * cannot send, or a tool choice naming a tool that is not declared. Raised when the model is built (or,
 * for the tool choice, before the request leaves), never after a round trip to the provider. `field`
 * says where to fix it (`GEMINI_API_KEY`, `model`, `schemaTarget`, `toolChoice`); a key is never quoted.
 */
export class GoogleConfigurationError extends ConfigurationError {
  readonly code: GoogleConfigurationErrorCode;

  constructor(code: GoogleConfigurationErrorCode, field: string, message: string) {
    super(field, message);
    this.code = code;
  }
}
