import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type LoopStreamEvent,
  type Message,
  ProviderError,
  runLoop,
  type StreamEvent,
  streamLoop,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import {
  createScriptedModel,
  createScriptedStreamingModel,
  ScriptExhaustedError,
  textTurn,
  toolCallsTurn,
} from '../src/index.js';

const user: Message[] = [{ role: 'user', content: 'Trouve le dossier A-1234.' }];
const request = { messages: user, tools: [] };

async function events(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

describe('ScriptedStreamingModel', () => {
  it('streams a scripted turn in fragments that add up to it, ending with turn-end', async () => {
    const turn = toolCallsTurn([{ id: 'c1', name: 'chercher_dossier', input: { numero: 'A-1234' } }], {
      text: 'Je regarde le dossier.',
    });
    const model = createScriptedStreamingModel([turn], { fragmentLength: 5 });
    const streamed = await events(model.stream(request));
    const texts = streamed.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(texts).toEqual(['Je re', 'garde', ' le d', 'ossie', 'r.']);
    const argumentsText = streamed.flatMap((event) => (event.type === 'tool-call-delta' ? [event.argumentsDelta] : []));
    expect(argumentsText.join('')).toBe('{"numero":"A-1234"}');
    expect(streamed.map((event) => event.type).filter((type) => !type.endsWith('-delta'))).toEqual([
      'tool-call-start',
      'tool-call-end',
      'turn-end',
    ]);
    expect(streamed.at(-1)).toEqual({ type: 'turn-end', turn, incompleteToolCallIds: [] });
    expect(model.requests).toEqual([request]);
    expect(model.remaining).toBe(0);
  });

  it('streams scripted events verbatim (a cut call, an error), and generate answers them as an adapter would', async () => {
    const error = new ProviderError({ provider: 'scripted', code: 'overloaded', message: 'busy', retryable: true });
    const cut: StreamEvent[] = [
      { type: 'tool-call-start', id: 'c1', name: 'noter', index: 0 },
      { type: 'tool-call-delta', id: 'c1', argumentsDelta: '{"note": "co' },
      { type: 'turn-end', turn: textTurn(''), incompleteToolCallIds: ['c1'] },
    ];
    const failing: StreamEvent[] = [
      { type: 'text-delta', text: 'Je' },
      { type: 'error', error },
    ];
    const streaming = createScriptedStreamingModel([{ events: cut }, { events: failing }]);
    expect(await events(streaming.stream(request))).toEqual(cut);
    const second = await events(streaming.stream(request));
    const last = second.at(-1);
    expect(second.map((event) => event.type)).toEqual(['text-delta', 'error']);
    // The very error scripted, not a copy: tests compare errors by identity.
    expect(last?.type === 'error' && last.error).toBe(error);

    const generating = createScriptedStreamingModel([{ events: cut }, { events: failing }]);
    await expect(generating.generate(request)).resolves.toEqual(textTurn(''));
    await expect(generating.generate(request)).rejects.toBe(error);
  });

  it('ends its stream with an error event, never a throw: aborted signal, exhausted script', async () => {
    const model = createScriptedStreamingModel([textTurn('a')]);
    const aborted = await events(model.stream({ ...request, signal: AbortSignal.abort('stop') }));
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    const exhausted = await events(model.stream(request));
    expect(exhausted[0]?.type === 'error' && exhausted[0].error).toBeInstanceOf(ScriptExhaustedError);
    expect(model.requests).toHaveLength(2);
  });

  it('stops streaming when the signal fires mid-turn', async () => {
    const controller = new AbortController();
    const model = createScriptedStreamingModel([textTurn('Une longue réponse, coupée.')], { fragmentLength: 4 });
    const seen: StreamEvent[] = [];
    for await (const event of model.stream({ ...request, signal: controller.signal })) {
      seen.push(event);
      controller.abort();
    }
    expect(seen.map((event) => event.type)).toEqual(['text-delta', 'error']);
  });

  it('drives streamLoop to the same result as the plain scripted model drives runLoop', async () => {
    const runs: unknown[] = [];
    const chercher = defineTool({
      name: 'chercher_dossier',
      description: 'Look up a case file.',
      inputSchema: { type: 'object', properties: { numero: { type: 'string' } }, required: ['numero'] },
      right: everySession,
      run: ({ numero }) => {
        runs.push(numero);
        return `Dossier ${numero}: ouvert`;
      },
    });
    const script = [
      toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }], { text: 'Je regarde.' }),
      textTurn('Le dossier est ouvert.'),
    ];
    const options = {
      catalogue: createCatalogue([chercher]),
      session: createSession({ id: 's', humanId: 'h' }),
      messages: user,
      runId: 'run',
    };
    const stream = streamLoop({ ...options, model: createScriptedStreamingModel(script, { fragmentLength: 3 }) });
    const seen: LoopStreamEvent[] = [];
    for await (const event of stream) seen.push(event);
    const expected = await runLoop({ ...options, model: createScriptedModel(script) });
    expect(await stream.result).toEqual(expected);
    expect(runs).toEqual(['A-1234', 'A-1234']);
    expect(seen.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(2);
  });
});
