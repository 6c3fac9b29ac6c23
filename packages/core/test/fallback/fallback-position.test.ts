// Where a run on a fallback list stands is read from its assistant messages' marks. The list keeps, per
// message, where the run stood at it, so a long run does not read its whole history each turn: the answer
// must be the one a full read gives, on every prefix of any history.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FallbackPosition } from '../../src/fallback/fallback-policy.js';
import { fallbackPosition } from '../../src/fallback/fallback-position.js';
import type { Message, Model } from '../../src/index.js';

const models = ['a', 'b', 'c'].map(
  (name): Model => ({
    provider: name,
    modelId: `${name}-1`,
    generate: () => Promise.reject(new Error('not asked')),
  }),
);

/** An assistant turn marked as answered by `member` (undefined: no mark, as before the list was used). */
function turn(member: number | undefined): Message[] {
  const model = member === undefined ? undefined : models[member];
  const marked: Message =
    member === undefined || model === undefined
      ? { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }
      : {
          role: 'assistant',
          content: [{ type: 'text', text: 'ok' }],
          providerMetadata: { fallback: { provider: model.provider, modelId: model.modelId, member } },
        };
  return [marked, { role: 'user', content: 'go on' }];
}

describe('fallbackPosition', () => {
  it('gives, remembering what it read, the position a full read gives, for every prefix of a history', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), { maxLength: 40 }),
        (members) => {
          const known = new WeakMap<Message, FallbackPosition>();
          const messages: Message[] = [{ role: 'user', content: 'go' }];
          expect(fallbackPosition(messages, models, known)).toEqual(fallbackPosition(messages, models));
          for (const member of members) {
            messages.push(...turn(member));
            expect(fallbackPosition(messages, models, known)).toEqual(fallbackPosition(messages, models));
          }
        },
      ),
    );
  });
});
