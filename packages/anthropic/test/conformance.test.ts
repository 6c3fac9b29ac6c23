// The shared adapter conformance suite (@toolcircuit/testing), over the real SDK and the replay server.
import { runConformanceSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_TOOL_RESULT_COVERAGE, createAnthropicModel } from '../src/index.js';

runConformanceSuite({
  protocol: 'anthropic-messages',
  label: 'anthropic messages',
  test: { describe, it, expect },
  mediaCoverage: ANTHROPIC_TOOL_RESULT_COVERAGE,
  // No retries: a mismatch must fail once instead of consuming the next interaction.
  createModel: ({ baseURL, modelId }) =>
    createAnthropicModel({ model: modelId, baseURL, apiKey: 'test-key-not-secret', maxRetries: 0 }),
});
