import type { Message, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { buildGoogleRequest } from '../src/build-google-request.js';
import { convertToGoogleMessages } from '../src/convert-to-google-messages.js';
import {
  createGoogleToolPreparer,
  type GoogleToolPreparer,
  prepareGoogleDeclarations,
} from '../src/google-prepare-tools.js';

const GENAI = { functionResponseRole: 'user' } as const;
const schema = { type: 'object', properties: { n: { type: 'integer' } } } as const;
const tool = (name: string): ToolDeclaration => ({ name, description: '', inputSchema: schema });

// `9lookup` is renamed for Gemini (`_9lookup`); next to a tool really named `_9lookup` it gets a hashed name.
const RENAMING = Object.freeze([tool('9lookup'), tool('list')]);
const RENAMING_OTHERWISE = Object.freeze([tool('9lookup'), tool('_9lookup')]);

function keyOf(tools: readonly ToolDeclaration[]): string {
  return prepareGoogleDeclarations(tools, 'gemini').nameMap.key;
}

/** Step `count` of a conversation: each step one turn of two calls (`9lookup`, `list`) and their results. */
function conversation(count: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Look everything up.' }];
  for (let step = 0; step < count; step += 1) {
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: `a${step}`, name: '9lookup', input: { n: step } },
          { type: 'tool_call', id: `b${step}`, name: 'list', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', callId: `a${step}`, name: '9lookup', content: `found ${step}`, isError: false },
          { type: 'tool_result', callId: `b${step}`, name: 'list', content: 'none', isError: false },
        ],
      },
    );
  }
  return messages;
}

/** The adapter's own preparer, counting every provider-name lookup the request building makes. */
function countingLookups(): { preparer: GoogleToolPreparer; lookups: () => number } {
  const inner = createGoogleToolPreparer('gemini');
  let lookups = 0;
  return {
    lookups: () => lookups,
    preparer: {
      declarationsOf: inner.declarationsOf,
      prepare(tools, toolChoice) {
        const prepared = inner.prepare(tools, toolChoice);
        const { nameMap } = prepared;
        const toProvider = (name: string): string => {
          lookups += 1;
          return nameMap.toProvider(name);
        };
        return { ...prepared, nameMap: { ...nameMap, toProvider } };
      },
    },
  };
}

describe('naming key', () => {
  it('is the same for catalogues that map every name the same way, and differs when a rename differs', () => {
    expect(keyOf([tool('b'), tool('a')])).toBe(keyOf([tool('a'), tool('c')]));
    expect(keyOf([tool('list'), tool('9lookup')])).toBe(keyOf(RENAMING));
    expect(keyOf(RENAMING)).not.toBe(keyOf([tool('a')]));
    expect(keyOf(RENAMING)).not.toBe(keyOf(RENAMING_OTHERWISE));
  });

  it('maps the names of a message once: a later step looks up only the new turn', () => {
    const { preparer, lookups } = countingLookups();
    const messages = conversation(30);
    const request = (steps: number): ModelRequest => ({ messages: messages.slice(0, 1 + 2 * steps), tools: RENAMING });
    const first = buildGoogleRequest(request(29), GENAI, preparer);
    const before = lookups();
    const next = buildGoogleRequest(request(30), GENAI, preparer);
    // Two calls and two results are new; the 29 turns before them (116 names) are not mapped again.
    expect(lookups() - before).toBe(4);
    expect(next.body.contents.slice(0, -2)).toEqual(first.body.contents);
    expect(next.body.contents[1]).toBe(first.body.contents[1]);
    expect(next.body.contents.at(-2)?.parts[0]?.functionCall?.name).toBe('_9lookup');
  });

  it('converts an earlier message again when the catalogue renames its calls otherwise', () => {
    const tools = createGoogleToolPreparer('gemini');
    const messages = conversation(1);
    const renamed = buildGoogleRequest({ messages, tools: RENAMING }, GENAI, tools).body.contents;
    const otherwise = buildGoogleRequest({ messages, tools: RENAMING_OTHERWISE }, GENAI, tools).body.contents;
    const provider = prepareGoogleDeclarations(RENAMING_OTHERWISE, 'gemini').nameMap.toProvider('9lookup');
    expect(provider).not.toBe('_9lookup');
    expect(renamed[1]?.parts[0]?.functionCall?.name).toBe('_9lookup');
    expect(otherwise[1]?.parts[0]?.functionCall?.name).toBe(provider);
    expect(otherwise[2]?.parts[0]?.functionResponse?.name).toBe(provider);
    // A new catalogue array that maps the same way reuses the conversions.
    const same = buildGoogleRequest({ messages, tools: [...RENAMING] }, GENAI, tools).body.contents;
    expect(same[1]).toBe(buildGoogleRequest({ messages, tools: RENAMING }, GENAI, tools).body.contents[1]);
  });

  it('without a naming key, the names the calls map to decide; with one, the key alone does', () => {
    const messages = conversation(1);
    const convert = (toProviderName: (name: string) => string, namingKey?: string) =>
      convertToGoogleMessages({ system: undefined, messages, functionResponseRole: 'user', toProviderName, namingKey })
        .contents;
    const plain = convert((name) => name);
    expect(convert((name) => `${name}`)[1]).toBe(plain[1]);
    const prefixed = convert((name) => `x_${name}`);
    expect(prefixed[1]?.parts[0]?.functionCall?.name).toBe('x_9lookup');
    expect(prefixed[2]?.parts[0]?.functionResponse?.name).toBe('x_9lookup');
    // The caller promises that one key means one mapping, so a second function under it is not called.
    const keyed = convert((name) => `y_${name}`, 'y');
    expect(keyed[1]?.parts[0]?.functionCall?.name).toBe('y_9lookup');
    expect(convert(() => 'never', 'y')[1]).toBe(keyed[1]);
  });
});
