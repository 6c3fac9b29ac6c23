import { GoogleGenAI } from '@google/genai';
import { GoogleGenerativeAI } from '@google/generative-ai';
import { describe, expect, it } from 'vitest';
import { createGoogleModel, GoogleConfigurationError } from '../src/index.js';
import { CASE_FILE_USER } from './support/case-files.js';
import { jsonInteraction, MODEL_ID, SDKS, syntheticCassette } from './support/gemini-cassette.js';
import { withReplay } from './support/replay.js';

const TEXT = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] };
const REQUEST = { messages: [CASE_FILE_USER], tools: [] };

describe.each(SDKS)('options over %s', (sdk) => {
  it('without a key, fails when the model is built, naming the variables to set', () => {
    const build = () => createGoogleModel({ sdk, model: MODEL_ID, env: {} });
    expect(build).toThrow(GoogleConfigurationError);
    expect(build).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
    try {
      build();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'configuration', code: 'missing_api_key', field: 'GEMINI_API_KEY' });
    }
  });

  it('treats a blank variable as missing', () => {
    expect(() => createGoogleModel({ sdk, model: MODEL_ID, env: { GEMINI_API_KEY: '  ' } })).toThrow(
      GoogleConfigurationError,
    );
  });

  it.each([
    [{ GEMINI_API_KEY: 'from-gemini', GOOGLE_API_KEY: 'from-google' }, 'from-gemini'],
    [{ GOOGLE_API_KEY: 'from-google' }, 'from-google'],
  ])('reads the key from the environment (%j) and sends it as x-goog-api-key', async (env, expected) => {
    const cassette = syntheticCassette('plain text answer, to capture the key header', [jsonInteraction(TEXT)]);
    await withReplay(cassette, async (server) => {
      await createGoogleModel({ sdk, model: MODEL_ID, env, baseURL: `${server.url}/` }).generate(REQUEST);
      expect(server.received[0]?.headers['x-goog-api-key']).toBe(expected);
      expect(server.mismatches).toEqual([]);
    });
  });

  it('sends extra headers', async () => {
    const cassette = syntheticCassette('plain text answer, to capture headers', [jsonInteraction(TEXT)]);
    await withReplay(cassette, async (server) => {
      const model = createGoogleModel({
        sdk,
        model: MODEL_ID,
        apiKey: 'k',
        baseURL: server.url,
        headers: { 'x-team': 'records' },
      });
      await model.generate(REQUEST);
      expect(server.received[0]?.headers['x-team']).toBe('records');
    });
  });

  it('refuses an empty model id when built', () => {
    expect(() => createGoogleModel({ sdk, model: ' ', apiKey: 'k' })).toThrow(/model id is empty/);
  });

  it('names itself google with the model id', () => {
    const model = createGoogleModel({ sdk, model: MODEL_ID, apiKey: 'k' });
    expect(model.provider).toBe('google');
    expect(model.modelId).toBe(MODEL_ID);
  });
});

describe('a client passed in', () => {
  it('genai: uses the given client as configured (no key needed in the options)', async () => {
    const cassette = syntheticCassette('plain text answer through a user-built genai client', [jsonInteraction(TEXT)]);
    await withReplay(cassette, async (server) => {
      const client = new GoogleGenAI({ apiKey: 'client-key', httpOptions: { baseUrl: server.url } });
      const turn = await createGoogleModel({ model: MODEL_ID, client, env: {} }).generate(REQUEST);
      expect(turn.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(server.received[0]?.headers['x-goog-api-key']).toBe('client-key');
    });
  });

  it('generative-ai: uses the given client, with baseURL for its model', async () => {
    const cassette = syntheticCassette('plain text answer through a user-built legacy client', [jsonInteraction(TEXT)]);
    await withReplay(cassette, async (server) => {
      const client = new GoogleGenerativeAI('client-key');
      const model = createGoogleModel({
        sdk: 'generative-ai',
        model: MODEL_ID,
        client,
        baseURL: server.url,
        env: {},
      });
      const turn = await model.generate(REQUEST);
      expect(turn.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(server.received[0]?.headers['x-goog-api-key']).toBe('client-key');
    });
  });
});

describe('schema target', () => {
  it('builds gemini-json-schema on the legacy SDK too (it posts parametersJsonSchema as it is)', () => {
    const build = () =>
      createGoogleModel({ sdk: 'generative-ai', model: MODEL_ID, apiKey: 'k', schemaTarget: 'gemini-json-schema' });
    expect(build).not.toThrow();
  });
});
