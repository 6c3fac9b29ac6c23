// The shared adapter conformance suite (@toolcircuit/testing) over both Gemini SDKs, each through its real
// HTTP code against the replay server.
import { runConformanceSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  createGoogleModel,
  GOOGLE_GENAI_TOOL_RESULT_COVERAGE,
  GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE,
} from '../src/index.js';

const common = { apiKey: 'test-key-not-a-secret', env: {} } as const;

runConformanceSuite({
  protocol: 'gemini',
  label: 'gemini over @google/genai',
  test: { describe, it, expect },
  mediaCoverage: GOOGLE_GENAI_TOOL_RESULT_COVERAGE,
  createModel: ({ baseURL, modelId }) => createGoogleModel({ ...common, sdk: 'genai', model: modelId, baseURL }),
});

runConformanceSuite({
  protocol: 'gemini',
  label: 'gemini over @google/generative-ai',
  test: { describe, it, expect },
  mediaCoverage: GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE,
  createModel: ({ baseURL, modelId }) =>
    createGoogleModel({ ...common, sdk: 'generative-ai', model: modelId, baseURL }),
});
