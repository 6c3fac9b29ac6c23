import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  ProviderError,
  runLoop,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, ScriptExhaustedError, textTurn, toolCallsTurn } from '../src/index.js';

const user: Message[] = [{ role: 'user', content: 'Trouve le dossier A-1234.' }];

describe('ScriptedModel', () => {
  it('plays back turns in order and drives the real loop', async () => {
    const chercher = defineTool({
      name: 'chercher_dossier',
      description: 'Look up a case file by its exact number.',
      inputSchema: {
        type: 'object',
        properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
        required: ['numero'],
        additionalProperties: false,
      },
      right: everySession,
      run: ({ numero }) => `Dossier ${numero}: ouvert`,
    });
    const model = createScriptedModel([
      toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }], { text: 'Je regarde.' }),
      textTurn('Le dossier est ouvert.'),
    ]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([chercher]),
      session: createSession({ id: 's', humanId: 'h' }),
      messages: user,
      system: 'Sois bref.',
    });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Le dossier est ouvert.');
    expect(model.requests).toHaveLength(2);
    expect(model.remaining).toBe(0);
    expect(model.requests[0]?.system).toBe('Sois bref.');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ callId: 'call_1', content: 'Dossier A-1234: ouvert', isError: false }],
    });
  });

  it('records deep copies: later mutation of what it was sent does not change the record', async () => {
    const model = createScriptedModel([textTurn('a')]);
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'original' }] }];
    const tools = [{ name: 't', description: 'd', inputSchema: { type: 'object' } }];
    await model.generate({ messages, tools });
    (messages[0] as unknown as { content: { text: string }[] }).content[0] = { text: 'changed' };
    messages.push({ role: 'user', content: 'more' });
    (tools[0] as { name: string }).name = 'renamed';
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'original' }] }]);
    expect(model.requests[0]?.tools[0]?.name).toBe('t');
  });

  it('copies very deep and hostile inputs without overflowing or turning "__proto__" into a prototype', async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`) as unknown;
    const hostile = JSON.parse('{"__proto__":{"polluted":true}}') as unknown;
    const model = createScriptedModel([textTurn('ok')]);
    await model.generate({
      messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'x', input: { deep, hostile } }] }],
      tools: [],
    });
    const recorded = model.requests[0]?.messages[0] as unknown as { content: { input: { hostile: object } }[] };
    const copy = recorded.content[0]?.input.hostile;
    expect(Object.keys(copy ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('returns a fresh copy of each scripted turn', async () => {
    const turn = textTurn('same');
    const model = createScriptedModel([turn, turn]);
    const first = await model.generate({ messages: [], tools: [] });
    expect(first).toEqual(turn);
    expect(first).not.toBe(turn);
  });

  it('lets a step compute its turn from the request', async () => {
    const model = createScriptedModel([(request, index) => textTurn(`${index}:${request.messages.length}`)]);
    expect((await model.generate({ messages: user, tools: [] })).content).toEqual([{ type: 'text', text: '0:1' }]);
  });

  it('fails clearly when it runs out of turns, saying which request and what it ended with', async () => {
    const model = createScriptedModel([textTurn('only one')]);
    await model.generate({ messages: user, tools: [] });
    const error = await model.generate({ messages: user, tools: [] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect((error as ScriptExhaustedError).message).toMatch(/request #2 arrived but the script has only 1 turn\./);
    expect((error as ScriptExhaustedError).message).toContain('Trouve le dossier A-1234.');
    expect(model.requests).toHaveLength(2);
  });

  it('honours an aborted signal like an adapter, with a ProviderError of code "aborted"', async () => {
    const model = createScriptedModel([textTurn('never')]);
    const error = await model
      .generate({ messages: user, tools: [], signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('aborted');
  });
});
