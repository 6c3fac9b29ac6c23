import { createModel, type ModelConfig } from '@toolcircuit/config';
import type { JsonValue, ModelRequest } from '@toolcircuit/core';
import { type Cassette, startReplayServer } from '@toolcircuit/testing';

// Nothing to replay: every request is answered "mismatch" (with x-should-retry: false), which is all that is
// needed, since the request itself is what gets captured.
const EMPTY: Cassette = {
  format: 'toolcircuit-cassette/1',
  protocol: 'anthropic-messages',
  provenance: { kind: 'synthetic', note: 'Synthetic: empty, used by `toolcircuit convert` to capture a request.' },
  interactions: [],
};

// Keys for a server on 127.0.0.1 that ignores them: a real key must never be sent just to see a request.
const PLACEHOLDER_KEYS = {
  ANTHROPIC_API_KEY: 'toolcircuit-convert-placeholder',
  OPENAI_API_KEY: 'toolcircuit-convert-placeholder',
  GEMINI_API_KEY: 'toolcircuit-convert-placeholder',
};

/**
 * The exact JSON body an adapter sends for `request`, through its official SDK, to a local server that
 * records it and answers an error. This is what the provider would receive, byte for byte, rather than a
 * re-implementation of the adapter's translation. `config` takes the server's URL.
 */
export async function captureRequestBody(
  config: (url: string) => ModelConfig,
  request: ModelRequest,
): Promise<JsonValue | undefined> {
  const server = await startReplayServer(EMPTY);
  try {
    const model = await createModel(config(server.url), { env: PLACEHOLDER_KEYS });
    try {
      await model.generate(request);
    } catch (error) {
      // Expected: the server answers "mismatch". Only an error before anything was sent matters.
      if (server.received.length === 0) throw error;
    }
    return server.received[0]?.body;
  } finally {
    await server.close();
  }
}
