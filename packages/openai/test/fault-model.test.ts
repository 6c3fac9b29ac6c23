// The fault model (@toolcircuit/testing) through the openai SDK's real HTTP code: Chat and Responses, every
// row, generate and stream.
import { runFaultSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';

const common = { model: 'gpt-4.1', apiKey: 'test-key', maxRetries: 0 } as const;

runFaultSuite({
  protocol: 'openai-chat',
  test: { describe, it, expect },
  createModel: (origin) => createOpenAIChatModel({ ...common, baseURL: `${origin}/v1` }),
});

runFaultSuite({
  protocol: 'openai-responses',
  test: { describe, it, expect },
  createModel: (origin) => createOpenAIResponsesModel({ ...common, baseURL: `${origin}/v1` }),
});
