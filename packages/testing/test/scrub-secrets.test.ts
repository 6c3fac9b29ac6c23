import { describe, expect, it } from 'vitest';
import { eraseSecrets, SCRUBBED, scrubHeaders, scrubQuery } from '../src/record/scrub-secrets.js';

describe('scrubbing', () => {
  it('scrubs credential and account headers whatever their case, and lower-cases names', () => {
    const { value, secrets } = scrubHeaders(
      {
        Authorization: 'Bearer sk-live-abcdefgh',
        'X-Api-Key': 'sk-ant-abcdefgh',
        'x-goog-api-key': 'AIza-abcdefgh',
        'api-key': 'azure-abcdefgh',
        Cookie: 'a=b',
        'OpenAI-Organization': 'org-abcdefgh',
        'Content-Type': 'application/json',
        'x-custom-token': 'custom-abcdefgh',
      },
      ['X-Custom-Token'],
    );
    expect(value).toEqual({
      authorization: SCRUBBED,
      'x-api-key': SCRUBBED,
      'x-goog-api-key': SCRUBBED,
      'api-key': SCRUBBED,
      cookie: SCRUBBED,
      'openai-organization': SCRUBBED,
      'content-type': 'application/json',
      'x-custom-token': SCRUBBED,
    });
    // The bare token of a Bearer header counts too: it is what an echo would contain.
    expect(secrets).toContain('sk-live-abcdefgh');
  });

  it('scrubs key query parameters only', () => {
    expect(scrubQuery({ key: 'AIza-abcdefgh', alt: 'sse' })).toEqual({
      value: { key: SCRUBBED, alt: 'sse' },
      secrets: ['AIza-abcdefgh'],
    });
  });

  it('erases secrets wherever they reappear, ignoring values too short to be keys', () => {
    const input = { message: 'bad key sk-ant-abcdefgh', list: ['x sk-ant-abcdefgh y'], short: 'ab' };
    expect(eraseSecrets(input, ['sk-ant-abcdefgh', 'ab'])).toEqual({
      message: `bad key ${SCRUBBED}`,
      list: [`x ${SCRUBBED} y`],
      short: 'ab',
    });
  });
});
