import { createAnthropicModel } from '@toolcircuit/anthropic';
import type { Model } from '@toolcircuit/core';
import { createGoogleModel } from '@toolcircuit/google';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '@toolcircuit/openai';
import type { CassetteProtocol } from '@toolcircuit/testing';

/** An adapter through its official SDK, pointed at the replay server. */
export interface SdkBackend {
  readonly label: string;
  readonly protocol: CassetteProtocol;
  createModel(baseURL: string, modelId: string): Model;
}

const key = { apiKey: 'test-key-not-a-secret' } as const;

export const SDK_BACKENDS: readonly SdkBackend[] = [
  {
    label: 'anthropic (@anthropic-ai/sdk)',
    protocol: 'anthropic-messages',
    createModel: (baseURL, model) => createAnthropicModel({ ...key, model, baseURL, maxRetries: 0, env: {} }),
  },
  {
    label: 'openai chat (openai)',
    protocol: 'openai-chat',
    createModel: (baseURL, model) =>
      createOpenAIChatModel({ ...key, model, baseURL: `${baseURL}/v1`, maxRetries: 0, env: {} }),
  },
  {
    label: 'openai responses (openai)',
    protocol: 'openai-responses',
    createModel: (baseURL, model) =>
      createOpenAIResponsesModel({ ...key, model, baseURL: `${baseURL}/v1`, maxRetries: 0, env: {} }),
  },
  {
    label: 'google (@google/genai)',
    protocol: 'gemini',
    createModel: (baseURL, model) => createGoogleModel({ ...key, model, baseURL, sdk: 'genai', env: {} }),
  },
  {
    label: 'google (@google/generative-ai)',
    protocol: 'gemini',
    createModel: (baseURL, model) => createGoogleModel({ ...key, model, baseURL, sdk: 'generative-ai', env: {} }),
  },
];
