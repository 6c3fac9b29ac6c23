import type { ProviderOptions } from '@toolcircuit/core';
import type { ProviderName } from './providers.js';

/** A model chosen by configuration. Everything except `provider` and `model` is optional. */
export interface ModelConfig {
  readonly provider: ProviderName;
  /** The provider's model id, e.g. `claude-sonnet-5-5`, `gpt-5.2`, `gemini-2.5-flash`. */
  readonly model: string;
  /** Another endpoint: a proxy, a replay server, or an OpenAI-compatible server. */
  readonly baseURL?: string;
  /** Read the key from this env var instead of the provider's usual one. The key itself never goes in config. */
  readonly apiKeyEnv?: string;
  /** Google only: which official SDK carries the calls. */
  readonly sdk?: 'genai' | 'generative-ai';
  /** OpenAI only: strict function schemas. */
  readonly strict?: boolean;
  /** Provider-specific request fields, merged into each request (see each adapter's README). */
  readonly providerOptions?: ProviderOptions;
}
