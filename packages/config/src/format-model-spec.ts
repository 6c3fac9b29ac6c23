import type { ModelConfig } from './model-config.js';

/**
 * The `provider:model` string of a config, with its endpoint when it has one: what a CLI or log may show.
 * Keys never live in a ModelConfig, but a base URL may carry `user:password@`; that part is masked.
 */
export function formatModelSpec(config: ModelConfig): string {
  const sdk = config.provider === 'google' && config.sdk !== undefined ? ` (sdk ${config.sdk})` : '';
  const at = config.baseURL === undefined ? '' : ` at ${maskCredentials(config.baseURL)}`;
  return `${config.provider}:${config.model}${sdk}${at}`;
}

function maskCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '***';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
