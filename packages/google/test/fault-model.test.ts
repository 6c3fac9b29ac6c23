// The fault model (@toolcircuit/testing) through both Gemini SDKs' real HTTP code: every row, generate and stream.
import { runFaultSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createGoogleModel } from '../src/index.js';

const common = { model: 'gemini-2.5-flash', apiKey: 'test-key-not-a-secret', env: {} } as const;

runFaultSuite({
  protocol: 'gemini',
  label: 'gemini over @google/genai',
  test: { describe, it, expect },
  createModel: (origin) => createGoogleModel({ ...common, sdk: 'genai', baseURL: origin }),
});

runFaultSuite({
  protocol: 'gemini',
  label: 'gemini over @google/generative-ai',
  test: { describe, it, expect },
  createModel: (origin) => createGoogleModel({ ...common, sdk: 'generative-ai', baseURL: origin }),
  limits: ['no-provider-code', 'stream-body-unseen'],
});
