import type { Model } from '@toolcircuit/core';
import { ADAPTER_PACKAGES } from './adapter-packages.js';
import { findApiKey } from './api-key.js';
import { parseModelConfig } from './config-file.js';
import { ModelConfigurationError } from './errors/configuration-error.js';
import { importAdapter } from './import-adapter.js';
import type { ModelConfig } from './model-config.js';
import { parseModelSpec } from './parse-model-spec.js';
import { DEFAULT_API_KEY_ENV } from './providers.js';
import { withProviderOptions } from './with-provider-options.js';

export interface CreateModelOptions {
  /** Where keys are read from. Default: `process.env`. Only the variable names ever reach a message. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A fetch for the SDK to send requests with (a proxy, a test harness). Anthropic and OpenAI only: the
   * Gemini adapter takes none, so asking for one there throws rather than silently going around it.
   */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Builds the adapter model a `"provider:model"` string or a {@link ModelConfig} names, importing the adapter
 * package on demand. The key comes from the environment ({@link findApiKey}); options that belong to
 * another provider (`sdk`, `strict`) are ignored, so switching the provider string is the only edit needed.
 *
 * Throws {@link ModelConfigurationError}: `invalid_model_spec` / `unknown_provider` for a bad string,
 * `invalid_config` for a bad object, `missing_api_key` naming the variable to set, `adapter_missing` naming
 * the package to install.
 *
 * @example
 * const model = await createModel('anthropic:claude-sonnet-4-5'); // key from ANTHROPIC_API_KEY
 */
export async function createModel(
  specOrConfig: string | ModelConfig,
  options: CreateModelOptions = {},
): Promise<Model> {
  const config = typeof specOrConfig === 'string' ? parseModelSpec(specOrConfig) : parseModelConfig(specOrConfig);
  const env = options.env ?? process.env;
  const model = await buildModel(config, env, options.fetch);
  return withProviderOptions(model, config.providerOptions);
}

async function buildModel(
  config: ModelConfig,
  env: Readonly<Record<string, string | undefined>>,
  fetch: typeof globalThis.fetch | undefined,
): Promise<Model> {
  const packageName = ADAPTER_PACKAGES[config.provider];
  const withFetch = fetch === undefined ? {} : { fetch };
  const withBaseURL = config.baseURL === undefined ? {} : { baseURL: config.baseURL };
  switch (config.provider) {
    case 'anthropic': {
      const apiKey = findApiKey(config, env).value;
      const { createAnthropicModel } = await importAdapter(packageName, () => import('@toolcircuit/anthropic'));
      return createAnthropicModel({ model: config.model, apiKey, ...withBaseURL, ...withFetch });
    }
    case 'openai':
    case 'openai-compatible': {
      const apiKey = config.provider === 'openai' ? findApiKey(config, env).value : compatibleKey(config, env);
      if (config.provider === 'openai-compatible' && config.baseURL === undefined) {
        throw new ModelConfigurationError(
          'invalid_config',
          'baseURL',
          'openai-compatible: no baseURL. Name the server, e.g. "baseURL": "http://localhost:11434/v1" in the model object, or set TOOLCIRCUIT_BASE_URL.',
        );
      }
      const { createOpenAIChatModel } = await importAdapter(packageName, () => import('@toolcircuit/openai'));
      return createOpenAIChatModel({
        model: config.model,
        provider: config.provider,
        apiKey,
        ...withBaseURL,
        ...withFetch,
        ...(config.strict === undefined ? {} : { strict: config.strict }),
      });
    }
    case 'openai-responses': {
      const apiKey = findApiKey(config, env).value;
      const { createOpenAIResponsesModel } = await importAdapter(packageName, () => import('@toolcircuit/openai'));
      return createOpenAIResponsesModel({
        model: config.model,
        apiKey,
        ...withBaseURL,
        ...withFetch,
        ...(config.strict === undefined ? {} : { strict: config.strict }),
      });
    }
    case 'google': {
      if (fetch !== undefined) {
        throw new ModelConfigurationError(
          'invalid_config',
          'fetch',
          'google: the Gemini adapter takes no custom fetch. Point model.baseURL (or TOOLCIRCUIT_BASE_URL) at your proxy instead.',
        );
      }
      const apiKey = findApiKey(config, env).value;
      const { createGoogleModel } = await importAdapter(packageName, () => import('@toolcircuit/google'));
      const common = { model: config.model, apiKey, ...withBaseURL };
      return config.sdk === 'generative-ai'
        ? createGoogleModel({ ...common, sdk: 'generative-ai' })
        : createGoogleModel({ ...common, sdk: 'genai' });
    }
  }
}

/**
 * Many OpenAI-compatible servers (Ollama, a local vLLM) need no key, but the SDK insists on one. A key
 * named explicitly in `apiKeyEnv` must exist; otherwise OPENAI_API_KEY is used when set, else a placeholder
 * that such servers ignore (one that does check answers 401, which says what is wrong).
 */
function compatibleKey(config: ModelConfig, env: Readonly<Record<string, string | undefined>>): string {
  if (config.apiKeyEnv !== undefined) return findApiKey(config, env).value;
  const usual = DEFAULT_API_KEY_ENV['openai-compatible'].map((name) => env[name]).find((value) => value?.trim());
  return usual ?? 'no-key';
}
