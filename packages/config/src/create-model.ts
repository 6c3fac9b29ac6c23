import { fallbackModel, type Model } from '@toolcircuit/core';
import { ADAPTER_PACKAGES } from './adapter-packages.js';
import { findApiKey } from './api-key.js';
import { CONFIG_FILE_NAME, loadConfigFile, parseModelConfig } from './config-file.js';
import { ModelConfigurationError } from './errors/configuration-error.js';
import { importAdapter } from './import-adapter.js';
import type { ModelConfig } from './model-config.js';
import { parseModelList } from './parse-model-list.js';
import { DEFAULT_API_KEY_ENV } from './providers.js';
import { BASE_URL_ENV, MODEL_ENV } from './resolve-model-config.js';
import { withProviderOptions } from './with-provider-options.js';

export interface CreateModelOptions {
  /** Where keys are read from. Default: `process.env`. Only the variable names ever reach a message. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A fetch for the SDK to send requests with (a proxy, a test harness). Anthropic and OpenAI only: the
   * Gemini adapter takes none, so asking for one there throws rather than silently going around it.
   */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Whether `TOOLCIRCUIT_MODEL` and `TOOLCIRCUIT_BASE_URL` (read from `env`) override the model given in code.
   * Default true: a deployment switches provider, or points the SDK at a proxy or a replay server, without
   * an edit. Pass false where the caller has already chosen (a CLI whose `--model` flag must win).
   */
  readonly envOverrides?: boolean;
  /**
   * The config file read when neither the argument nor `TOOLCIRCUIT_MODEL` names a model. Default
   * `toolcircuit.config.json` in the working directory (a missing file is fine); false reads none.
   */
  readonly configFile?: string | false;
}

/**
 * Builds the adapter model a `"provider:model"` string or a {@link ModelConfig} names, importing the adapter
 * package on demand; a comma-separated list (`"anthropic:claude-sonnet-5-5, openai:gpt-5"`, in any of the
 * places below) builds each and returns one `fallbackModel` of them: the first answers, the next when it
 * fails with a retryable provider error. Which model, in order: `TOOLCIRCUIT_MODEL` (unless `envOverrides: false`), the
 * argument, the `model` of `toolcircuit.config.json`. `TOOLCIRCUIT_BASE_URL` then replaces the endpoint.
 * The key comes from the environment ({@link findApiKey}); options that belong to another provider (`sdk`,
 * `strict`) are ignored, so switching the provider string is the only edit needed.
 *
 * Throws {@link ModelConfigurationError}: `invalid_model_spec` / `unknown_provider` for a bad string (with
 * the closest provider when it looks like a typo), or when nothing names a model; `invalid_config` for a bad
 * object or config file; `missing_api_key` naming the variable to set; `adapter_missing` naming the package
 * to install.
 *
 * @example
 * const model = await createModel('anthropic:claude-sonnet-5-5'); // key from ANTHROPIC_API_KEY
 * const chosen = await createModel(); // TOOLCIRCUIT_MODEL, else "model" in ./toolcircuit.config.json
 */
export async function createModel(
  specOrConfig?: string | ModelConfig,
  options: CreateModelOptions = {},
): Promise<Model> {
  const env = options.env ?? process.env;
  const configs = await chooseModels(specOrConfig, env, options);
  const models: Model[] = [];
  for (const config of configs) {
    models.push(withProviderOptions(await buildModel(config, env, options.fetch), config.providerOptions));
  }
  // A list (`"anthropic:…, openai:…"`): one model that falls over to the next when one fails.
  return models.length === 1 ? (models[0] as Model) : fallbackModel(models);
}

async function chooseModels(
  specOrConfig: string | ModelConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  options: CreateModelOptions,
): Promise<ModelConfig[]> {
  const overrides = options.envOverrides !== false;
  const fromEnv = overrides ? nonEmpty(env[MODEL_ENV]) : undefined;
  const chosen =
    fromEnv !== undefined
      ? parseModelList(fromEnv, MODEL_ENV)
      : specOrConfig !== undefined
        ? typeof specOrConfig === 'string'
          ? parseModelList(specOrConfig)
          : [parseModelConfig(specOrConfig)]
        : await modelsOfConfigFile(options.configFile);
  const baseURL = overrides ? nonEmpty(env[BASE_URL_ENV]) : undefined;
  return baseURL === undefined ? chosen : chosen.map((config) => ({ ...config, baseURL }));
}

async function modelsOfConfigFile(configFile: string | false | undefined): Promise<ModelConfig[]> {
  const file = configFile === false ? undefined : (configFile ?? CONFIG_FILE_NAME);
  const config = file === undefined ? undefined : await loadConfigFile(file);
  const model = config?.model;
  if (model !== undefined) return typeof model === 'string' ? parseModelList(model, '/model') : [model];
  throw new ModelConfigurationError(
    'invalid_model_spec',
    'model',
    `no model chosen: pass one (createModel('anthropic:claude-sonnet-5-5')), set ${MODEL_ENV}=provider:model, or add "model" to ${CONFIG_FILE_NAME}${file === undefined ? '' : ` (looked for ${file})`}.`,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
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
