/**
 * Every backend a model string can name. `openai-compatible` is the Chat Completions adapter pointed at
 * another server (vLLM, Ollama, a gateway) through `baseURL`.
 */
export const PROVIDERS = ['anthropic', 'openai', 'openai-responses', 'google', 'openai-compatible'] as const;

export type ProviderName = (typeof PROVIDERS)[number];

/** The environment variable each provider's key is read from by default (the SDKs' own conventions). */
export const DEFAULT_API_KEY_ENV: Readonly<Record<ProviderName, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  'openai-compatible': ['OPENAI_API_KEY'],
};

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDERS as readonly string[]).includes(value);
}
