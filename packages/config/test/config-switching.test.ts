import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FallbackModel } from '@toolcircuit/core';
import { type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createModel, ModelConfigurationError, parseConfig, parseModelConfig, parseModelSpec } from '../src/index.js';

// The README's promise: the model is switched by changing one string, in code, in toolcircuit.config.json,
// or with TOOLCIRCUIT_MODEL; TOOLCIRCUIT_BASE_URL points the SDK elsewhere. Answers are synthetic.
const KEY = 'sk-ant-test-0123456789';
const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function anthropicServer(): Promise<ReplayServer> {
  const server = await startReplayServer({
    format: 'toolcircuit-cassette/1',
    protocol: 'anthropic-messages',
    provenance: { kind: 'synthetic', note: 'Synthetic: written for the config switching tests, not recorded.' },
    interactions: [
      {
        request: { method: 'POST', path: '/v1/messages' },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: {
            kind: 'json',
            json: {
              id: 'msg_s1',
              type: 'message',
              role: 'assistant',
              model: 'claude-haiku-5-5',
              content: [{ type: 'text', text: 'ok' }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          },
        },
      },
    ],
  });
  servers.push(server);
  return server;
}

async function refusal(promise: Promise<unknown>): Promise<ModelConfigurationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ModelConfigurationError)) throw new Error(`expected ModelConfigurationError, got ${error}`);
  return error;
}

const ask = (model: Awaited<ReturnType<typeof createModel>>) =>
  model.generate({ messages: [{ role: 'user', content: 'Bonjour' }], tools: [] });

describe('createModel: which model', () => {
  it('TOOLCIRCUIT_MODEL overrides the string given in code', async () => {
    const model = await createModel('anthropic:claude-sonnet-5-5', {
      env: { TOOLCIRCUIT_MODEL: 'openai:gpt-5-mini', OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: KEY },
    });
    expect({ provider: model.provider, modelId: model.modelId }).toEqual({ provider: 'openai', modelId: 'gpt-5-mini' });
  });

  it('TOOLCIRCUIT_BASE_URL sends the requests of the model given in code to another endpoint', async () => {
    const server = await anthropicServer();
    const model = await createModel('anthropic:claude-haiku-5-5', {
      env: { TOOLCIRCUIT_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY },
    });
    await ask(model);
    expect(server.received.map((request) => request.path)).toEqual(['/v1/messages']);
    expect(server.received[0]?.body).toMatchObject({ model: 'claude-haiku-5-5' });
  });

  it('envOverrides: false keeps the model given in code (for callers that resolved it already)', async () => {
    const model = await createModel('anthropic:claude-haiku-5-5', {
      env: {
        TOOLCIRCUIT_MODEL: 'openai:gpt-5-mini',
        TOOLCIRCUIT_BASE_URL: 'http://127.0.0.1:9',
        ANTHROPIC_API_KEY: KEY,
      },
      envOverrides: false,
    });
    expect(model.provider).toBe('anthropic');
  });

  it('with no argument, reads TOOLCIRCUIT_MODEL', async () => {
    const model = await createModel(undefined, {
      env: { TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5', ANTHROPIC_API_KEY: KEY },
    });
    expect(model.modelId).toBe('claude-haiku-5-5');
  });

  it('with no argument and no TOOLCIRCUIT_MODEL, reads "model" from the config file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-config-'));
    const file = join(dir, 'toolcircuit.config.json');
    await writeFile(file, JSON.stringify({ model: { provider: 'google', model: 'gemini-2.5-flash', sdk: 'genai' } }));
    const model = await createModel(undefined, { env: { GEMINI_API_KEY: 'g-test' }, configFile: file });
    expect({ provider: model.provider, modelId: model.modelId }).toEqual({
      provider: 'google',
      modelId: 'gemini-2.5-flash',
    });
  });

  it('with nothing anywhere, says the three ways to choose (not a schema error about an object)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-config-'));
    const error = await refusal(createModel(undefined, { env: {}, configFile: join(dir, 'toolcircuit.config.json') }));
    expect(error.code).toBe('invalid_model_spec');
    expect(error.message).toContain('TOOLCIRCUIT_MODEL=provider:model');
    expect(error.message).toContain('toolcircuit.config.json');
    expect(error.message).not.toMatch(/must be object/);
  });
});

describe('createModel: a fallback list', () => {
  it('TOOLCIRCUIT_MODEL=a,b builds both, as one model that falls over from the first to the second', async () => {
    const model = (await createModel(undefined, {
      env: {
        TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5, openai-responses:gpt-5',
        ANTHROPIC_API_KEY: KEY,
        OPENAI_API_KEY: 'sk-test',
      },
    })) as FallbackModel;
    expect(model.provider).toBe('fallback');
    expect(model.models.map((one) => `${one.provider}:${one.modelId}`)).toEqual([
      'anthropic:claude-haiku-5-5',
      'openai:gpt-5',
    ]);
  });

  it('a list in toolcircuit.config.json, each entry checked; a bad one is named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-config-'));
    const file = join(dir, 'toolcircuit.config.json');
    await writeFile(file, JSON.stringify({ model: 'google:gemini-2.5-flash,anthropic:claude-haiku-5-5' }));
    const model = (await createModel(undefined, {
      env: { GEMINI_API_KEY: 'g-test', ANTHROPIC_API_KEY: KEY },
      configFile: file,
    })) as FallbackModel;
    expect(model.models.map((one) => one.provider)).toEqual(['google', 'anthropic']);
    expect(() => parseConfig({ model: 'google:gemini-2.5-flash, antropic:claude' })).toThrow(/antropic/);
  });

  it('where one model is expected (resolveModelConfig, the CLI), a list is refused by name, not misread', () => {
    expect(() => parseModelSpec('anthropic:claude-haiku-5-5,openai:gpt-5', 'TOOLCIRCUIT_MODEL')).toThrow(
      /is a list of models/,
    );
  });
});

describe('did you mean', () => {
  it('suggests the provider a misspelt one is closest to', async () => {
    const error = await refusal(createModel('antrhopic:claude-haiku-5-5', { env: {} }));
    expect(error.code).toBe('unknown_provider');
    expect(error.message).toContain('unknown provider "antrhopic". Did you mean "anthropic"?');
    expect(() => parseModelSpec('Google:gemini-2.5-flash')).toThrow('Did you mean "google"?');
    expect(() => parseModelSpec('openai-response:gpt-5.2')).toThrow('Did you mean "openai-responses"?');
  });

  it('suggests nothing for a name that is no typo', () => {
    expect(() => parseModelSpec('mistral:large')).toThrow(/unknown provider "mistral"\. Use one of/);
  });

  it('suggests the field a misspelt config field is closest to, at the top and inside the model', () => {
    expect(() => parseConfig({ modle: 'anthropic:claude-haiku-5-5' })).toThrow(
      '/: unknown field "modle". Did you mean "model"?',
    );
    expect(() => parseConfig({ model: { provider: 'openai', model: 'gpt-5.2', baseUrl: 'http://x' } })).toThrow(
      'unknown field "baseUrl". Did you mean "baseURL"?',
    );
    expect(() => parseModelConfig({ provider: 'google', model: 'gemini-2.5-flash', sdk: 'genia' })).toThrow(
      'Did you mean "genai"?',
    );
    expect(() => parseConfig({ maxTurn: 3 })).toThrow('Did you mean "maxTurns"?');
  });

  it('still says where keys go for a key-like field that is no typo', () => {
    expect(() => parseConfig({ model: { provider: 'openai', model: 'gpt-5.2', apiKey: 'sk' } })).toThrow(
      /keys are never read from config/,
    );
  });
});
