// The fault model (@toolcircuit/testing) through @anthropic-ai/sdk's real HTTP code: every row, generate and stream.
import { runFaultSuite } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';

runFaultSuite({
  protocol: 'anthropic-messages',
  test: { describe, it, expect },
  createModel: (origin) =>
    createAnthropicModel({ model: 'claude-sonnet-5-5', apiKey: 'test-key', baseURL: origin, maxRetries: 0 }),
});
