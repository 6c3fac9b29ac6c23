// The five backends, each through its official SDK, pointed at a replay server on 127.0.0.1; no SDK retries
// by itself (maxRetries: 0; the Gemini SDKs do not retry), so every provider error reaches the loop.
import { createAnthropicModel } from '@toolcircuit/anthropic';
import { createGoogleModel } from '@toolcircuit/google';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '@toolcircuit/openai';
import type { ConformanceBackend } from '@toolcircuit/testing';

export interface NamedBackend extends ConformanceBackend {
  readonly label: string;
}

const KEY = 'test-key-not-secret';

export const BACKENDS: readonly NamedBackend[] = [
  {
    label: 'anthropic messages',
    protocol: 'anthropic-messages',
    createModel: ({ baseURL, modelId }) =>
      createAnthropicModel({ model: modelId, baseURL, apiKey: KEY, maxRetries: 0 }),
  },
  {
    label: 'openai chat completions',
    protocol: 'openai-chat',
    createModel: ({ baseURL, modelId }) =>
      createOpenAIChatModel({ model: modelId, baseURL: `${baseURL}/v1`, apiKey: KEY, maxRetries: 0, env: {} }),
  },
  {
    label: 'openai responses',
    protocol: 'openai-responses',
    createModel: ({ baseURL, modelId }) =>
      createOpenAIResponsesModel({ model: modelId, baseURL: `${baseURL}/v1`, apiKey: KEY, maxRetries: 0, env: {} }),
  },
  {
    label: 'gemini over @google/genai',
    protocol: 'gemini',
    createModel: ({ baseURL, modelId }) =>
      createGoogleModel({ sdk: 'genai', model: modelId, baseURL, apiKey: KEY, env: {} }),
  },
  {
    label: 'gemini over @google/generative-ai',
    protocol: 'gemini',
    createModel: ({ baseURL, modelId }) =>
      createGoogleModel({ sdk: 'generative-ai', model: modelId, baseURL, apiKey: KEY, env: {} }),
  },
];
