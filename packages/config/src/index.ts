export { ADAPTER_PACKAGES } from './adapter-packages.js';
export { type ApiKeyLookup, findApiKey, redactSecrets } from './api-key.js';
export {
  CONFIG_FILE_NAME,
  ConfigFileError,
  type ConfigProblem,
  loadConfigFile,
  type McpServerConfig,
  parseConfig,
  parseModelConfig,
  type ToolcircuitConfig,
} from './config-file.js';
export { CONFIG_FILE_SCHEMA } from './config-file-schema.js';
export { type CreateModelOptions, createModel } from './create-model.js';
export { ModelConfigurationError } from './errors/configuration-error.js';
export { formatModelSpec } from './format-model-spec.js';
export { importAdapter } from './import-adapter.js';
export type { ModelConfig } from './model-config.js';
export { parseModelSpec } from './parse-model-spec.js';
export { DEFAULT_API_KEY_ENV, PROVIDERS, type ProviderName } from './providers.js';
export { BASE_URL_ENV, MODEL_ENV, type ResolveModelConfigInput, resolveModelConfig } from './resolve-model-config.js';
