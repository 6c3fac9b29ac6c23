import { Anthropic } from '@anthropic-ai/sdk';
import { ToolcircuitError } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { AnthropicConfigurationError, createAnthropicModel } from '../src/index.js';
import { json, message, replay, syntheticCassette } from './replay.js';

describe('building the model', () => {
  it('throws a configuration error naming ANTHROPIC_API_KEY when no key is found, at build time', () => {
    let caught: unknown;
    try {
      createAnthropicModel({ model: 'claude-sonnet-4-6', env: { ANTHROPIC_API_KEY: '  ' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AnthropicConfigurationError);
    expect(caught).toBeInstanceOf(ToolcircuitError);
    expect(caught).toMatchObject({ kind: 'configuration', code: 'missing_api_key', field: 'ANTHROPIC_API_KEY' });
    expect((caught as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('reads the key from the environment and never puts it in an error message', async () => {
    const secret = 'sk-ant-do-not-print-0123456789';
    const { server } = await replay(
      syntheticCassette('401 for a bad key', [
        json({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, 401),
      ]),
    );
    const model = createAnthropicModel({
      model: 'claude-sonnet-4-6',
      baseURL: server.url,
      maxRetries: 0,
      env: { ANTHROPIC_API_KEY: secret },
    });
    const error = await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).then(
      () => new Error('expected a failure'),
      (caught: unknown) => caught as Error,
    );
    // SDK 1.14 sends the key as a bearer token (older versions used x-api-key).
    expect(server.received[0]?.headers['authorization']).toBe(`Bearer ${secret}`);
    expect(error).toMatchObject({ code: 'authentication', status: 401 });
    expect(String(error.message)).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
  });

  it('uses a given client as is', async () => {
    const { server } = await replay(
      syntheticCassette('one answer', [json(message([{ type: 'text', text: 'hi' }], 'end_turn'))]),
    );
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const model = createAnthropicModel({ model: 'claude-sonnet-4-6', client, env: {} });
    expect(model).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-6' });
    expect((await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
  });

  it.each([
    [{ model: ' ' }, 'model'],
    [{ model: 'claude-sonnet-4-6', maxTokens: 0 }, 'maxTokens'],
    [{ model: 'claude-sonnet-4-6', maxTokens: 1.5 }, 'maxTokens'],
  ])('rejects bad options %j', (options, field) => {
    expect(() => createAnthropicModel({ ...options, apiKey: 'k' })).toThrow(AnthropicConfigurationError);
    expect(() => createAnthropicModel({ ...options, apiKey: 'k' })).toThrow(expect.objectContaining({ field }));
  });
});
