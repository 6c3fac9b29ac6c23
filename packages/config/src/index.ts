export { type ApiKeyLookup, findApiKey, redactSecrets } from './api-key.js';
export {
  CONFIG_FILE_NAME,
  ConfigFileError,
  type ConfigProblem,
  loadConfigFile,
  parseConfig,
  type ToolcircuitConfig,
} from './config-file.js';
export { CONFIG_FILE_SCHEMA } from './config-file-schema.js';
export { ModelConfigurationError } from './errors/configuration-error.js';
export type { ModelConfig } from './model-config.js';
export { parseModelSpec } from './parse-model-spec.js';
export { DEFAULT_API_KEY_ENV, PROVIDERS, type ProviderName } from './providers.js';
export { BASE_URL_ENV, MODEL_ENV, type ResolveModelConfigInput, resolveModelConfig } from './resolve-model-config.js';
