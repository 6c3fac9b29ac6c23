import { fileURLToPath } from 'node:url';
import type { ModelConfig } from '@toolcircuit/config';
import { sdkBaseUrl } from '../sdk-base-url.js';

/** One adapter + official SDK the demo drives, and the synthetic cassette its replay server serves. */
export interface DemoBackend {
  readonly id: string;
  /** What is being exercised: the adapter and the SDK under it. */
  readonly label: string;
  /** Cassette name in `cassettes/demo/`. */
  readonly cassette: string;
  /** The only thing that changes between backends: the model config. */
  readonly config: (root: string, model: string) => ModelConfig;
}

/** `cassettes/demo/`, one level above both `src/` and `dist/`. */
export function demoCassettesDirectory(): string {
  return fileURLToPath(new URL('../../cassettes/demo/', import.meta.url));
}

export const DEMO_BACKENDS: readonly DemoBackend[] = [
  {
    id: 'anthropic',
    label: 'Anthropic Messages via @anthropic-ai/sdk',
    cassette: 'anthropic-messages',
    config: (root, model) => ({ provider: 'anthropic', model, baseURL: sdkBaseUrl('anthropic-messages', root) }),
  },
  {
    id: 'openai-chat',
    label: 'OpenAI Chat Completions via openai',
    cassette: 'openai-chat',
    config: (root, model) => ({ provider: 'openai', model, baseURL: sdkBaseUrl('openai-chat', root) }),
  },
  {
    id: 'openai-responses',
    label: 'OpenAI Responses via openai',
    cassette: 'openai-responses',
    config: (root, model) => ({ provider: 'openai-responses', model, baseURL: sdkBaseUrl('openai-responses', root) }),
  },
  {
    id: 'gemini-genai',
    label: 'Gemini via @google/genai',
    cassette: 'gemini',
    config: (root, model) => ({ provider: 'google', model, sdk: 'genai', baseURL: sdkBaseUrl('gemini', root) }),
  },
  {
    id: 'gemini-generative-ai',
    label: 'Gemini via @google/generative-ai',
    cassette: 'gemini',
    config: (root, model) => ({ provider: 'google', model, sdk: 'generative-ai', baseURL: sdkBaseUrl('gemini', root) }),
  },
];
