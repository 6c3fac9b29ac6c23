import { type ClientOptions, OpenAI } from 'openai';
import { OpenAIConfigurationError } from './openai-configuration-error.js';

/** The environment variable the key is read from by default, as the official SDK does. */
export const OPENAI_API_KEY_ENV = 'OPENAI_API_KEY';

/** The options both OpenAI adapters (Chat Completions and Responses) take. */
export interface OpenAISharedModelOptions {
  /** Model id sent as `model`, e.g. `gpt-5.2` or `gpt-5-mini`. */
  readonly model: string;
  /**
   * Adapter name and key of this adapter's entries in provider bags (`providerOptions`, `providerMetadata`).
   * Defaults to `openai`. Set it for an OpenAI-compatible server (`ollama`, `vllm`, `openai-compatible`…) so
   * its data never mixes with OpenAI's when a conversation moves between them.
   */
  readonly provider?: string;
  /**
   * A ready client. When given, `apiKey`, `apiKeyEnv`, `baseURL`, `maxRetries`, `timeout` and `fetch` are ignored.
   * The SDK's own `OpenAI` class gets the body as text made from cached pieces; a subclass (`AzureOpenAI`…)
   * gets the body object, which it may read.
   */
  readonly client?: OpenAI;
  /** Defaults to the value of `apiKeyEnv` in the environment. Keyless local servers accept any string. */
  readonly apiKey?: string;
  /** Which environment variable holds the key (default {@link OPENAI_API_KEY_ENV}). */
  readonly apiKeyEnv?: string;
  /** API root including `/v1` (the SDK appends `/chat/completions` or `/responses`), e.g. `http://localhost:11434/v1`. */
  readonly baseURL?: string;
  /**
   * The SDK's own retries (its default is 2). The SDK retries 408, 409, 429 and 5xx and connection errors,
   * honouring `retry-after-ms`, `retry-after` and `x-should-retry`; note that it retries a 429
   * `insufficient_quota` too, which can never succeed. Set 0 to leave retrying to the caller, which gets
   * `retryable` and `retryAfterMs` on every {@link ProviderError}.
   */
  readonly maxRetries?: number;
  readonly timeout?: number;
  readonly fetch?: ClientOptions['fetch'];
  /**
   * Strict function calling: schemas are translated for the `openai-strict` target (every property
   * required, optional ones nullable) and parsed inputs go through `restoreStrictInput`, so a `null` the
   * model had to send for an omitted optional never reaches the tool. Per tool: a tool strict mode would
   * narrow (keys its open objects accept, a null it could not tell from "omitted", a union it could not
   * restore) is sent with `strict: false` and its faithful schema, and the change log says so (`strict-off`).
   * Objects that merely omit `additionalProperties` are closed without costing strict mode: keys nobody declared
   * are no input (change `closed-implicit-object`).
   */
  readonly strict?: boolean;
  /**
   * With `strict`: count the keys an object leaves open by omitting `additionalProperties` as inputs too
   * (`translateSchema`'s option of the same name), so a tool with such an object is sent with `strict: false`
   * rather than closed. Default `false`.
   */
  readonly keepUndeclaredKeys?: boolean;
  /** Where the key is looked up; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The adapter name used in errors and bag keys. */
export function providerNameOf(options: OpenAISharedModelOptions): string {
  return options.provider ?? 'openai';
}

/** Checks the options that do not need a client; throws {@link OpenAIConfigurationError}. */
export function validateOpenAIOptions(options: OpenAISharedModelOptions): void {
  const provider = providerNameOf(options);
  if (provider.trim() === '') {
    throw new OpenAIConfigurationError('openai', 'invalid_option', 'provider', 'provider name is empty.');
  }
  if (options.model.trim() === '') {
    throw new OpenAIConfigurationError(provider, 'invalid_option', 'model', 'model id is empty.');
  }
  const maxRetries = options.maxRetries;
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new OpenAIConfigurationError(
      provider,
      'invalid_option',
      'maxRetries',
      `maxRetries must be a non-negative integer, got ${maxRetries}.`,
    );
  }
}

/**
 * Returns the user's client, or builds one. A missing key throws here, at build time, naming the variable
 * to set, instead of surfacing as a 401 on the first call.
 */
export function createOpenAIClient(options: OpenAISharedModelOptions): OpenAI {
  if (options.client !== undefined) return options.client;
  const provider = providerNameOf(options);
  const envName = options.apiKeyEnv ?? OPENAI_API_KEY_ENV;
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env[envName];
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new OpenAIConfigurationError(
      provider,
      'missing_api_key',
      envName,
      `no API key. Set ${envName} in the environment, or pass apiKey or a client.`,
    );
  }
  // Without baseURL the SDK falls back to OPENAI_BASE_URL, then api.openai.com: its documented behaviour.
  const clientOptions: ClientOptions = { apiKey };
  if (options.baseURL !== undefined) clientOptions.baseURL = options.baseURL;
  if (options.maxRetries !== undefined) clientOptions.maxRetries = options.maxRetries;
  if (options.timeout !== undefined) clientOptions.timeout = options.timeout;
  if (options.fetch !== undefined) clientOptions.fetch = options.fetch;
  return new OpenAI(clientOptions);
}
