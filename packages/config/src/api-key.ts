import { ModelConfigurationError } from './errors/configuration-error.js';
import type { ModelConfig } from './model-config.js';
import { DEFAULT_API_KEY_ENV } from './providers.js';

export interface ApiKeyLookup {
  /** The env var it came from, safe to print. */
  readonly envName: string;
  /** The secret itself: never print, log or journal it. */
  readonly value: string;
}

/** Finds the key for a model in the environment, or throws an error naming the variable to set. */
export function findApiKey(config: ModelConfig, env: Readonly<Record<string, string | undefined>>): ApiKeyLookup {
  const names = config.apiKeyEnv === undefined ? DEFAULT_API_KEY_ENV[config.provider] : [config.apiKeyEnv];
  for (const envName of names) {
    const value = env[envName];
    if (value !== undefined && value.trim() !== '') return { envName, value };
  }
  throw new ModelConfigurationError(
    'missing_api_key',
    names[0] ?? 'apiKeyEnv',
    `${config.provider}: no API key. Set ${names.join(' or ')} in the environment${
      config.apiKeyEnv === undefined ? ' (or name another variable in model.apiKeyEnv)' : ''
    }.`,
  );
}

/** Replaces every known key value in a text by `[redacted]`, for output that might echo a provider's words. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out;
}
