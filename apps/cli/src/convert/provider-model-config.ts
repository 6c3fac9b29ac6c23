import type { ModelConfig } from '@toolcircuit/config';
import type { CliProvider } from '../lint/lint-providers.js';

/**
 * The model config that drives each `--provider` of convert through its adapter, pointed at `url`. The
 * model ids are placeholders: they change the URL or the `model` field, never how tools are declared.
 * Base URLs follow each SDK's convention (OpenAI's includes /v1).
 */
export function providerModelConfig(provider: CliProvider, url: string): ModelConfig {
  switch (provider) {
    case 'anthropic':
      return { provider: 'anthropic', model: 'claude-haiku-5-5', baseURL: url };
    case 'openai':
      return { provider: 'openai', model: 'gpt-4.1', baseURL: `${url}/v1` };
    case 'openai-strict':
      return { provider: 'openai', model: 'gpt-4.1', baseURL: `${url}/v1`, strict: true };
    case 'openai-responses':
      return { provider: 'openai-responses', model: 'gpt-4.1', baseURL: `${url}/v1` };
    case 'gemini':
      return { provider: 'google', model: 'gemini-2.5-flash', baseURL: url };
  }
}
