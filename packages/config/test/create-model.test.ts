import type { Model } from '@toolcircuit/core';
import { type Cassette, type CassetteProtocol, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createModel,
  formatModelSpec,
  importAdapter,
  type ModelConfig,
  ModelConfigurationError,
} from '../src/index.js';

// Synthetic answers (written for these tests, not recorded), one per wire protocol, each saying ANSWER.
const ANSWER = 'Bonjour depuis le serveur de rejeu.';
const SYNTHETIC = { kind: 'synthetic', note: 'Synthetic: written for the createModel tests, not recorded.' } as const;

const BODIES: Record<CassetteProtocol, { path: string; json: Cassette['interactions'][number]['response']['body'] }> = {
  'anthropic-messages': {
    path: '/v1/messages',
    json: {
      kind: 'json',
      json: {
        id: 'msg_t1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [{ type: 'text', text: ANSWER }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 7 },
      },
    },
  },
  'openai-chat': {
    path: '/v1/chat/completions',
    json: {
      kind: 'json',
      json: {
        id: 'chatcmpl-t1',
        object: 'chat.completion',
        created: 1764579600,
        model: 'gpt-test',
        choices: [{ index: 0, message: { role: 'assistant', content: ANSWER, refusal: null }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      },
    },
  },
  'openai-responses': {
    path: '/v1/responses',
    json: {
      kind: 'json',
      json: {
        id: 'resp_t1',
        object: 'response',
        created_at: 1764579600,
        status: 'completed',
        model: 'gpt-test',
        output: [
          {
            type: 'message',
            id: 'msg_t1',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
          },
        ],
        incomplete_details: null,
        error: null,
        usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
      },
    },
  },
  gemini: {
    path: '/v1beta/models/gemini-test:generateContent',
    json: {
      kind: 'json',
      json: {
        candidates: [{ content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
        modelVersion: 'gemini-test',
      },
    },
  },
};

function cassetteFor(protocol: CassetteProtocol): Cassette {
  const { path, json } = BODIES[protocol];
  return {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: SYNTHETIC,
    interactions: [
      {
        request: { method: 'POST', path },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: json },
      },
    ],
  };
}

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(protocol: CassetteProtocol): Promise<ReplayServer> {
  const server = await startReplayServer(cassetteFor(protocol));
  servers.push(server);
  return server;
}

function ask(model: Model) {
  return model.generate({ messages: [{ role: 'user', content: 'Bonjour' }], tools: [] });
}

async function refusal(promise: Promise<unknown>): Promise<ModelConfigurationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigurationError);
    return error as ModelConfigurationError;
  }
  throw new Error('expected a ModelConfigurationError');
}

const KEY = 'test-key-0123456789';

// The base URL follows each SDK's convention: Anthropic and Gemini take the root, OpenAI the root plus /v1.
const CASES: readonly {
  readonly label: string;
  readonly protocol: CassetteProtocol;
  readonly config: (url: string) => ModelConfig;
  readonly env: Record<string, string>;
  readonly provider: string;
}[] = [
  {
    label: 'anthropic',
    protocol: 'anthropic-messages',
    config: (url) => ({ provider: 'anthropic', model: 'claude-test', baseURL: url }),
    env: { ANTHROPIC_API_KEY: KEY },
    provider: 'anthropic',
  },
  {
    label: 'openai (chat)',
    protocol: 'openai-chat',
    config: (url) => ({ provider: 'openai', model: 'gpt-test', baseURL: `${url}/v1` }),
    env: { OPENAI_API_KEY: KEY },
    provider: 'openai',
  },
  {
    label: 'openai-responses',
    protocol: 'openai-responses',
    config: (url) => ({ provider: 'openai-responses', model: 'gpt-test', baseURL: `${url}/v1` }),
    env: { OPENAI_API_KEY: KEY },
    provider: 'openai',
  },
  {
    label: 'openai-compatible with a named key variable',
    protocol: 'openai-chat',
    config: (url) => ({
      provider: 'openai-compatible',
      model: 'gpt-test',
      baseURL: `${url}/v1`,
      apiKeyEnv: 'GATEWAY_KEY',
    }),
    env: { GATEWAY_KEY: KEY },
    provider: 'openai-compatible',
  },
  {
    label: 'google over @google/genai',
    protocol: 'gemini',
    config: (url) => ({ provider: 'google', model: 'gemini-test', baseURL: url }),
    env: { GEMINI_API_KEY: KEY },
    provider: 'google',
  },
  {
    label: 'google over @google/generative-ai',
    protocol: 'gemini',
    config: (url) => ({ provider: 'google', model: 'gemini-test', baseURL: url, sdk: 'generative-ai' }),
    env: { GOOGLE_API_KEY: KEY },
    provider: 'google',
  },
];

describe('createModel', () => {
  it.each(CASES)('$label: builds the adapter, which talks to the replay server with the key from env', async (c) => {
    const server = await serve(c.protocol);
    const model = await createModel(c.config(server.url), { env: c.env });
    expect(model.provider).toBe(c.provider);
    const turn = await ask(model);
    expect(turn.content).toEqual([expect.objectContaining({ type: 'text', text: ANSWER })]);
    expect(server.mismatches).toEqual([]);
    expect(server.remaining).toBe(0);
    const [request] = server.received;
    expect(request?.path).toBe(BODIES[c.protocol].path);
    expect(Object.values(request?.headers ?? {}).some((value) => value.includes(KEY))).toBe(true);
  });

  it('takes a "provider:model" string', async () => {
    const model = await createModel('openai-responses:gpt-test', { env: { OPENAI_API_KEY: KEY } });
    expect(model.provider).toBe('openai');
    expect(model.modelId).toBe('gpt-test');
  });

  it('sends through the given fetch', async () => {
    const server = await serve('anthropic-messages');
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return globalThis.fetch(input, init);
    };
    const model = await createModel(
      { provider: 'anthropic', model: 'claude-test', baseURL: server.url },
      { env: { ANTHROPIC_API_KEY: KEY }, fetch },
    );
    await ask(model);
    expect(seen).toEqual([`${server.url}/v1/messages`]);
  });

  it('adds the config providerOptions to each request, under the request own fields', async () => {
    const server = await serve('anthropic-messages');
    const model = await createModel(
      {
        provider: 'anthropic',
        model: 'claude-test',
        baseURL: server.url,
        providerOptions: { anthropic: { metadata: { user_id: 'from-config' }, top_k: 3 } },
      },
      { env: { ANTHROPIC_API_KEY: KEY } },
    );
    await model.generate({
      messages: [{ role: 'user', content: 'Bonjour' }],
      tools: [],
      providerOptions: { anthropic: { top_k: 5 } },
    });
    expect(server.received[0]?.body).toMatchObject({ metadata: { user_id: 'from-config' }, top_k: 5 });
  });

  it('a keyless OpenAI-compatible server gets a placeholder key, but needs a baseURL', async () => {
    const server = await serve('openai-chat');
    const model = await createModel(
      { provider: 'openai-compatible', model: 'llama', baseURL: `${server.url}/v1` },
      { env: {} },
    );
    expect((await ask(model)).content).toHaveLength(1);
    expect(server.received[0]?.headers['authorization']).toBe('Bearer no-key');
    const error = await refusal(createModel('openai-compatible:llama', { env: {} }));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/baseURL/);
  });

  it('names the env var to set when the key is missing, and never prints another variable', async () => {
    const error = await refusal(
      createModel('google:gemini-test', { env: { OPENAI_API_KEY: 'sk-other-secret-value' } }),
    );
    expect(error.code).toBe('missing_api_key');
    expect(error.message).toContain('GEMINI_API_KEY or GOOGLE_API_KEY');
    expect(error.message).not.toContain('sk-other-secret-value');
  });

  it('refuses a custom fetch for Google rather than silently going around it', async () => {
    const error = await refusal(
      createModel('google:gemini-test', { env: { GEMINI_API_KEY: KEY }, fetch: globalThis.fetch }),
    );
    expect(error.field).toBe('fetch');
  });

  it('validates a model object given in code, naming each bad field', async () => {
    const error = await refusal(createModel({ provider: 'mistral', model: '' } as unknown as ModelConfig, { env: {} }));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('model/provider');
    expect(error.message).toContain('model/model');
  });

  it('refuses an unknown provider string with the list of known ones', async () => {
    const error = await refusal(createModel('mistral:large', { env: {} }));
    expect(error.code).toBe('unknown_provider');
    expect(error.message).toContain('anthropic, openai, openai-responses, google, openai-compatible');
  });
});

describe('importAdapter', () => {
  it('turns a real "package not found" into adapter_missing, naming the package to install', async () => {
    const specifier = '@toolcircuit/not-installed';
    const error = await refusal(importAdapter('@toolcircuit/not-installed', () => import(specifier)));
    expect(error.code).toBe('adapter_missing');
    expect(error.message).toContain('npm install @toolcircuit/not-installed');
  });

  it('names the missing dependency when it is the adapter SDK that is absent', async () => {
    const specifier = 'some-missing-sdk/sub/path';
    const error = await refusal(importAdapter('@toolcircuit/google', () => import(specifier)));
    expect(error.message).toContain('some-missing-sdk (needed by @toolcircuit/google)');
  });

  it('lets other import errors through', async () => {
    const boom = new SyntaxError('Unexpected token');
    await expect(importAdapter('@toolcircuit/openai', () => Promise.reject(boom))).rejects.toBe(boom);
  });
});

describe('formatModelSpec', () => {
  it('prints provider:model, the Google SDK and the endpoint, masking credentials in the URL', () => {
    expect(formatModelSpec({ provider: 'anthropic', model: 'claude-haiku-5-5' })).toBe('anthropic:claude-haiku-5-5');
    expect(formatModelSpec({ provider: 'google', model: 'gemini-2.5-flash', sdk: 'generative-ai' })).toBe(
      'google:gemini-2.5-flash (sdk generative-ai)',
    );
    const shown = formatModelSpec({
      provider: 'openai-compatible',
      model: 'llama',
      baseURL: 'https://bob:hunter2@gw.example/v1',
    });
    expect(shown).toBe('openai-compatible:llama at https://***@gw.example/v1');
  });
});
