import type { ProviderName } from './providers.js';

/**
 * The package that carries each provider. They are optional peers of `@toolcircuit/config`: an application
 * installs only the adapters it uses, and {@link createModel} imports the one a config names on demand.
 */
export const ADAPTER_PACKAGES: Readonly<Record<ProviderName, string>> = {
  anthropic: '@toolcircuit/anthropic',
  openai: '@toolcircuit/openai',
  'openai-responses': '@toolcircuit/openai',
  'openai-compatible': '@toolcircuit/openai',
  google: '@toolcircuit/google',
};
