// The shared adapter conformance suite (@toolcircuit/testing) for both OpenAI APIs, over the real SDK and
// the replay server.
import { runConformanceSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  OPENAI_CHAT_TOOL_RESULT_COVERAGE,
  OPENAI_RESPONSES_TOOL_RESULT_COVERAGE,
} from '../src/index.js';

const common = { apiKey: 'test-key-not-secret', maxRetries: 0, env: {} } as const;

runConformanceSuite({
  protocol: 'openai-chat',
  label: 'openai chat completions',
  test: { describe, it, expect },
  mediaCoverage: OPENAI_CHAT_TOOL_RESULT_COVERAGE,
  createModel: ({ baseURL, modelId }) => createOpenAIChatModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
});

runConformanceSuite({
  protocol: 'openai-responses',
  label: 'openai responses',
  test: { describe, it, expect },
  mediaCoverage: OPENAI_RESPONSES_TOOL_RESULT_COVERAGE,
  createModel: ({ baseURL, modelId }) =>
    createOpenAIResponsesModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
});
