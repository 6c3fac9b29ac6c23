import { Anthropic, type ClientOptions } from '@anthropic-ai/sdk';
import { AnthropicConfigurationError } from './anthropic-configuration-error.js';
import type { AnthropicStructuredOutput } from './anthropic-output-format.js';
import type { AnthropicToolSearch } from './anthropic-tool-search.js';

/** The environment variable the key is read from, as the official SDK does. */
export const ANTHROPIC_API_KEY_ENV = 'ANTHROPIC_API_KEY';

/** Used when neither the request nor the options set `max_tokens`, which the Messages API requires. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

export interface AnthropicModelOptions {
  /** Model id sent as `model`, e.g. `claude-sonnet-5-5`. */
  readonly model: string;
  /** A ready client. When given, `apiKey`, `baseURL`, `maxRetries`, `timeout` and `fetch` are ignored. */
  readonly client?: Anthropic;
  /** Defaults to `ANTHROPIC_API_KEY` from the environment. */
  readonly apiKey?: string;
  /** API root without `/v1` (the SDK appends `/v1/messages`). */
  readonly baseURL?: string;
  /** Default `max_tokens` when a request has no `maxOutputTokens` (default {@link DEFAULT_ANTHROPIC_MAX_TOKENS}). */
  readonly maxTokens?: number;
  /** The SDK's own retries (its default is 2, honouring `retry-after` and `x-should-retry`). */
  readonly maxRetries?: number;
  readonly timeout?: number;
  readonly fetch?: ClientOptions['fetch'];
  /**
   * Deferred tools (a catalogue with `defer`): `neutral` (default) uses core's search tool; `bm25` or `regex`
   * Anthropic's own tool search tool with `defer_loading` on the deferred tools.
   */
  readonly toolSearch?: AnthropicToolSearch;
  /**
   * Whether this model has context editing (`context_management` with `clear_tool_uses`, beta), which a
   * context policy with `native: true` then uses instead of clearing results itself. Default: by the model
   * id (Claude 4 and later); set it for an id the adapter cannot tell (a proxy's alias, a platform's id).
   */
  readonly contextEditing?: boolean;
  /**
   * How a run's structured answer (`runLoop`'s `output`) is asked for: `native` (structured outputs,
   * `output_config.format`) or `tool` (an answer tool the model must call). Default: `native` on Claude
   * Opus, Sonnet and Haiku 4.5 and later, `tool` on other models.
   */
  readonly structuredOutput?: AnthropicStructuredOutput;
  /** Where the key is looked up; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Returns the user's client, or builds one. A missing key throws here, at build time, naming the
 * variable to set, instead of surfacing as a 401 on the first call.
 */
export function createAnthropicClient(options: AnthropicModelOptions): Anthropic {
  if (options.client !== undefined) return options.client;
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env[ANTHROPIC_API_KEY_ENV];
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new AnthropicConfigurationError(
      'missing_api_key',
      ANTHROPIC_API_KEY_ENV,
      `no API key. Set ${ANTHROPIC_API_KEY_ENV} in the environment, or pass apiKey or a client.`,
    );
  }
  const clientOptions: ClientOptions = { apiKey };
  if (options.baseURL !== undefined) clientOptions.baseURL = options.baseURL;
  if (options.maxRetries !== undefined) clientOptions.maxRetries = options.maxRetries;
  if (options.timeout !== undefined) clientOptions.timeout = options.timeout;
  if (options.fetch !== undefined) clientOptions.fetch = options.fetch;
  return new Anthropic(clientOptions);
}

/** Checks the options that do not need a client; throws {@link AnthropicConfigurationError}. */
export function validateAnthropicOptions(options: AnthropicModelOptions): void {
  if (options.model.trim() === '') {
    throw new AnthropicConfigurationError('invalid_option', 'model', 'model id is empty.');
  }
  const toolSearch: unknown = options.toolSearch;
  if (toolSearch !== undefined && toolSearch !== 'neutral' && toolSearch !== 'bm25' && toolSearch !== 'regex') {
    throw new AnthropicConfigurationError(
      'invalid_option',
      'toolSearch',
      `toolSearch must be 'neutral', 'bm25' or 'regex', got ${JSON.stringify(toolSearch)}.`,
    );
  }
  const contextEditing: unknown = options.contextEditing;
  if (contextEditing !== undefined && typeof contextEditing !== 'boolean') {
    throw new AnthropicConfigurationError(
      'invalid_option',
      'contextEditing',
      `contextEditing must be true or false, got ${JSON.stringify(contextEditing)}.`,
    );
  }
  const structured: unknown = options.structuredOutput;
  if (structured !== undefined && structured !== 'native' && structured !== 'tool') {
    throw new AnthropicConfigurationError(
      'invalid_option',
      'structuredOutput',
      `structuredOutput must be 'native' or 'tool', got ${JSON.stringify(structured)}.`,
    );
  }
  const maxTokens = options.maxTokens;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new AnthropicConfigurationError(
      'invalid_option',
      'maxTokens',
      `maxTokens must be a positive integer, got ${maxTokens}.`,
    );
  }
}
