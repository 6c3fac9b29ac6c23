import { GoogleGenAI, type HttpOptions } from '@google/genai';
import type { GoogleGenerativeAI, RequestOptions } from '@google/generative-ai';
import type { GoogleBinding } from './google-binding.js';
import { GoogleConfigurationError } from './google-configuration-error.js';
import { createGenaiBinding } from './google-genai-binding.js';
import { createGenerativeAiBinding } from './google-generative-ai-binding.js';
import type { GoogleStructuredOutput } from './google-output-format.js';
import type { GoogleSchemaTarget } from './google-prepare-tools.js';
import { guardedFetch } from './guarded-fetch.js';
import { loadGenerativeAi } from './load-generative-ai.js';

/** Where the key is looked for, in this order (the first is the Gemini docs' name). */
export const GOOGLE_API_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

interface GoogleModelCommonOptions {
  /** Gemini model id, e.g. `gemini-2.5-flash` (becomes the model's `modelId`). */
  readonly model: string;
  /** The API key. Default: `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. Not needed when `client` is given. */
  readonly apiKey?: string;
  /**
   * Root URL of the API, without the version (`https://generativelanguage.googleapis.com` by default);
   * the SDKs append `/v1beta/models/…`. Only used when the adapter builds the client, except on
   * `generative-ai`, whose per-model options always receive it.
   */
  readonly baseURL?: string;
  /** Extra HTTP headers, same rule as `baseURL`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per-request timeout in milliseconds, same rule as `baseURL`. */
  readonly timeout?: number;
  /**
   * How tool schemas are declared: `gemini` (default: `parameters`, the OpenAPI 3.0 subset) or
   * `gemini-json-schema` (`parametersJsonSchema`, real JSON Schema), on both SDKs. With `gemini`, a tool the
   * OpenAPI subset would narrow (a tool without declared parameters that declares open keys, a union it could
   * not restore) is declared with `parametersJsonSchema` instead, per function (change `json-schema-parameters`).
   * A tool that declares no parameters and omits `additionalProperties` is declared without `parameters`:
   * keys nobody declared are no input (change `closed-implicit-object`).
   */
  readonly schemaTarget?: GoogleSchemaTarget;
  /**
   * How a run's structured answer (`runLoop`'s `output`) is asked for when the request has tools: `native`
   * (JSON mode next to them; Gemini 3 and later) or `tool` (an answer tool the model must call). Without
   * tools JSON mode is always used. Default: `native` on `gemini-3…` and later, `tool` otherwise.
   */
  readonly structuredOutput?: GoogleStructuredOutput;
  /**
   * Count the keys an object leaves open by omitting `additionalProperties` as inputs too (`translateSchema`'s
   * option of the same name): a tool that declares no parameters is then declared with `parametersJsonSchema`,
   * open to any argument, rather than without `parameters`. Default `false`.
   */
  readonly keepUndeclaredKeys?: boolean;
  /** The environment to read the key from. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Over `@google/genai` (the maintained SDK): the default. */
export interface GoogleGenaiModelOptions extends GoogleModelCommonOptions {
  readonly sdk?: 'genai';
  /** A configured client; its own base URL, headers, retry options and key are used as they are. */
  readonly client?: GoogleGenAI;
}

/** Over `@google/generative-ai` 0.24 (archived upstream; kept for users who already depend on it). */
export interface GoogleGenerativeAiModelOptions extends GoogleModelCommonOptions {
  readonly sdk: 'generative-ai';
  readonly client?: GoogleGenerativeAI;
}

export type GoogleModelOptions = GoogleGenaiModelOptions | GoogleGenerativeAiModelOptions;

/** Builds the SDK client (unless one was given) and the binding over it. Throws when no key is found. */
export function createGoogleBinding(options: GoogleModelOptions): GoogleBinding {
  if (options.model.trim() === '') {
    throw new GoogleConfigurationError('invalid_option', 'model', 'google: model id is empty.');
  }
  const baseUrl = options.baseURL?.replace(/\/+$/, '');
  if (options.sdk === 'generative-ai') {
    const client = options.client ?? new (loadGenerativeAi().GoogleGenerativeAI)(resolveGoogleApiKey(options));
    const requestOptions: RequestOptions = {};
    if (baseUrl !== undefined) requestOptions.baseUrl = baseUrl;
    if (options.headers !== undefined) requestOptions.customHeaders = { ...options.headers };
    if (options.timeout !== undefined) requestOptions.timeout = options.timeout;
    return createGenerativeAiBinding(client.getGenerativeModel({ model: options.model }, requestOptions));
  }
  if (options.client !== undefined) return createGenaiBinding(options.client, options.model);
  const httpOptions: HttpOptions = { fetch: guardedFetch };
  if (baseUrl !== undefined) httpOptions.baseUrl = baseUrl;
  if (options.headers !== undefined) httpOptions.headers = { ...options.headers };
  if (options.timeout !== undefined) httpOptions.timeout = options.timeout;
  const client = new GoogleGenAI({ apiKey: resolveGoogleApiKey(options), httpOptions });
  return createGenaiBinding(client, options.model, guardedFetch);
}

/** The key from the options or the environment; the error names the variables, never a value. */
export function resolveGoogleApiKey(options: Pick<GoogleModelCommonOptions, 'apiKey' | 'env'>): string {
  if (options.apiKey !== undefined && options.apiKey.trim() !== '') return options.apiKey;
  const env = options.env ?? (typeof process === 'undefined' ? {} : process.env);
  for (const name of GOOGLE_API_KEY_ENV) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value;
  }
  throw new GoogleConfigurationError(
    'missing_api_key',
    GOOGLE_API_KEY_ENV[0],
    `google: no API key. Set ${GOOGLE_API_KEY_ENV.join(' or ')} in the environment, or pass apiKey (or a client).`,
  );
}
