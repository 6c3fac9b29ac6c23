import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type JsonTextCache,
  sealForReuse,
  stringifyRequestArray,
  stringifyRequestBody,
} from '../../src/json/cached-json-text.js';

/** Seals some of the objects of a value (shallowly, as `cachedConversion` does), chosen by `pick`. */
function freezeSome(value: unknown, pick: () => boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  for (const member of Object.values(value)) freezeSome(member, pick);
  return pick() ? sealForReuse(value) : value;
}

describe('stringifyRequestBody', () => {
  it('writes exactly what JSON.stringify writes, whatever is sealed, first and second time (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.anything({ withSparseArray: true, withDate: true })),
        fc.infiniteStream(fc.boolean()),
        (body, coin) => {
          const frozen = freezeSome(body, () => coin.next().value as boolean) as Record<string, unknown>;
          const cache: JsonTextCache = new WeakMap();
          const expected = JSON.stringify(frozen);
          expect(stringifyRequestBody(frozen, cache)).toBe(expected);
          expect(stringifyRequestBody(frozen, cache)).toBe(expected);
        },
      ),
    );
  });

  it('keeps JSON.stringify’s treatment of undefined, functions and holes', () => {
    const body = {
      skipped: undefined,
      fn: () => 1,
      list: sealForReuse([1, undefined, () => 2, sealForReuse({ a: undefined, b: 1 })]),
      open: [undefined, sealForReuse({ toJSON: () => undefined })],
      at: new Date(0),
    };
    expect(stringifyRequestBody(body, new WeakMap())).toBe(JSON.stringify(body));
  });

  it('serialises a sealed element once across requests, and an unsealed one every time', () => {
    let frozenWrites = 0;
    let openWrites = 0;
    const frozen = sealForReuse({
      toJSON: () => {
        frozenWrites += 1;
        return { role: 'user', content: 'kept' };
      },
    });
    const open = {
      toJSON: () => {
        openWrites += 1;
        return { role: 'user', content: 'new' };
      },
    };
    const cache: JsonTextCache = new WeakMap();
    for (let step = 0; step < 3; step += 1) {
      const text = stringifyRequestBody({ model: 'm', messages: [frozen, open] }, cache);
      expect(text).toBe('{"model":"m","messages":[{"role":"user","content":"kept"},{"role":"user","content":"new"}]}');
    }
    expect(frozenWrites).toBe(1);
    expect(openWrites).toBe(3);
  });

  it('does not reuse the text of an object that is merely frozen: its nested values may still change', () => {
    const options = Object.freeze({ metadata: { user: 'a' } });
    const cache: JsonTextCache = new WeakMap();
    expect(stringifyRequestBody({ options }, cache)).toBe('{"options":{"metadata":{"user":"a"}}}');
    options.metadata.user = 'b';
    expect(stringifyRequestBody({ options }, cache)).toBe('{"options":{"metadata":{"user":"b"}}}');
  });

  it('reuses the text of a sealed member array as a whole', () => {
    const tools = sealForReuse([{ name: 'a' }]);
    const cache: JsonTextCache = new WeakMap();
    stringifyRequestBody({ tools }, cache);
    expect(cache.get(tools)).toBe('[{"name":"a"}]');
  });

  it('follows a history that grows, then diverges (an edited conversation), exactly as JSON.stringify', () => {
    const cache: JsonTextCache = new WeakMap();
    const message = (n: number) => sealForReuse({ role: n % 2 === 0 ? 'user' : 'assistant', content: `m${n}` });
    const history: object[] = [];
    for (let step = 0; step < 6; step += 1) {
      history.push(message(step));
      const body = { model: 'm', messages: [...history, { role: 'user', content: 'open, not frozen' }] };
      expect(stringifyRequestBody(body, cache)).toBe(JSON.stringify(body));
    }
    const edited = [history[0] as object, message(99), ...history.slice(2)];
    expect(stringifyRequestBody({ messages: edited }, cache)).toBe(JSON.stringify({ messages: edited }));
    const shorter = history.slice(0, 2);
    expect(stringifyRequestBody({ messages: shorter }, cache)).toBe(JSON.stringify({ messages: shorter }));
    expect(stringifyRequestBody({ messages: history }, cache)).toBe(JSON.stringify({ messages: history }));
  });

  it('stringifyRequestArray writes exactly what JSON.stringify writes for an array, growing or not (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.anything({ withSparseArray: true, withDate: true })),
        fc.infiniteStream(fc.boolean()),
        (values, coin) => {
          const frozen = freezeSome(values, () => coin.next().value as boolean) as unknown[];
          const cache: JsonTextCache = new WeakMap();
          expect(stringifyRequestArray(frozen, cache)).toBe(JSON.stringify(frozen));
          const grown = [...frozen, sealForReuse({ next: true })];
          expect(stringifyRequestArray(grown, cache)).toBe(JSON.stringify(grown));
          expect(stringifyRequestArray(frozen, cache)).toBe(JSON.stringify(frozen));
        },
      ),
    );
  });
});
