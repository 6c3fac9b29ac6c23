import type { Model } from '@toolcircuit/core';
import { type Cassette, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { createGoogleModel, type GoogleModelOptions } from '../../src/index.js';
import { MODEL_ID, type Sdk } from './gemini-cassette.js';

export const TEST_API_KEY = 'test-key-not-a-secret-1234';

type ExtraOptions = Partial<Pick<GoogleModelOptions, 'schemaTarget' | 'model' | 'headers'>>;

/** A model of the given SDK pointed at the replay server, with a fake key and no environment. */
export function modelFor(sdk: Sdk, server: Pick<ReplayServer, 'url'>, extra: ExtraOptions = {}): Model {
  const common = { model: MODEL_ID, apiKey: TEST_API_KEY, baseURL: server.url, env: {}, ...extra };
  return sdk === 'genai' ? createGoogleModel({ ...common, sdk }) : createGoogleModel({ ...common, sdk });
}

/** Serves the cassette for the duration of `run`, then checks every request matched and was served. */
export async function withReplay<T>(cassette: Cassette, run: (server: ReplayServer) => Promise<T>): Promise<T> {
  const server = await startReplayServer(cassette);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}
