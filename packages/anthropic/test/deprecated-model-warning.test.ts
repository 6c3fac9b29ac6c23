import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it, vi } from 'vitest';
import { isNoise } from '../../../scripts/test/noise-guard.js';

// The test-wide noise guard fails any test that makes the SDK print its end-of-life line. This pins that the
// guard still recognises the line the installed SDK prints, so a deprecated id cannot creep back unseen.
describe('deprecated model ids', () => {
  it("the SDK's end-of-life warning is what the noise guard catches", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const client = new Anthropic({
        apiKey: 'k',
        maxRetries: 0,
        fetch: async () => {
          throw new Error('offline: never sent');
        },
      });
      await client.messages
        .create({ model: 'claude-sonnet-4-5', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] })
        .catch(() => undefined);
      const printed = warn.mock.calls.map((call) => call.map(String).join(' '));
      expect(printed.some(isNoise)).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });
});
