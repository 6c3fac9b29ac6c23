import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CallEvent,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  InvalidLoopOptionsError,
  type JournalEntry,
  type LoopOptions,
  type LoopResult,
  type LoopStream,
  type LoopStreamEvent,
  type Message,
  type Model,
  type ModelRequest,
  type ModelTurn,
  ProviderError,
  runLoop,
  type StreamEvent,
  streamLoop,
  type ToolMessage,
  toolResultText,
} from '../../src/index.js';
import { echoTool, frenchCatalogue, paymentTool, slowTool, untilAbortedTool } from '../fixtures.js';
import { modelTurn, catalogue as randomCatalogue, session as randomSession } from '../random-turns.js';
import {
  alwaysCalling,
  call,
  callsTurn,
  deferred,
  scripted,
  settle,
  streaming,
  textTurn,
  turnWith,
} from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Trouve le dossier A-1234.' }];
const reader = createSession({ id: 'session-1', humanId: 'marie', rights: ['dossiers:lire'] });

/** Reads the whole stream; `onEvent` runs as each event arrives (to react mid-stream, like an application). */
async function collect(stream: LoopStream, onEvent: (event: LoopStreamEvent) => void = () => {}) {
  const events: LoopStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

/** `type:turn`, with runs of the same delta folded into one `type*`: the shape of a stream at a glance. */
/** The result, with whatever resume token its pause has (tokens are random per pause). */
function anyResumeToken(result: LoopResult): LoopResult {
  if (result.paused === undefined) return result;
  return { ...result, paused: { ...result.paused, resumeToken: expect.any(String) } };
}

function shape(events: readonly LoopStreamEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const label = event.type === 'loop-end' ? `loop-end:${event.result.status}` : `${event.type}:${event.turn}`;
    const folded = `${label}*`;
    if (event.type.endsWith('-delta') && (out.at(-1) === label || out.at(-1) === folded)) out[out.length - 1] = folded;
    else out.push(label);
  }
  return out;
}

function turnOf(event: LoopStreamEvent): number | undefined {
  return event.type === 'loop-end' ? undefined : event.turn;
}

function replies(messages: readonly Message[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => message.role === 'tool');
}

/** A model that streams the given events, one list per request; `generate` is never used. */
function eventsModel(scripts: readonly (readonly StreamEvent[])[]): Model & { readonly requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: 'test',
    modelId: 'events',
    requests,
    generate: () => Promise.reject(new Error('generate must not be called when the model streams')),
    async *stream(request) {
      requests.push(request);
      const events = scripts[requests.length - 1];
      if (events === undefined) throw new Error(`script exhausted at request ${requests.length}`);
      yield* events;
    },
  };
}

/** A model that only streams: `generate` must not be reached when `stream` exists. */
function streamOnly(stream: (request: ModelRequest) => AsyncIterable<StreamEvent>): Model {
  return { provider: 'test', modelId: 'stream-only', generate: () => Promise.reject(new Error('not used')), stream };
}

/** A tool that records every run: the proof that a call was, or was not, executed. */
function recordingTool(runs: unknown[]) {
  return defineTool({
    name: 'noter',
    description: 'Writes a note.',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
    right: everySession,
    run: (input) => {
      runs.push(input);
      return 'noted';
    },
  });
}

/** A run whose only tool is the recording one. */
function notingStream(model: Model, runs: unknown[], extra: Partial<LoopOptions> = {}): LoopStream {
  return streamLoop({
    model,
    catalogue: createCatalogue([recordingTool(runs)]),
    session: reader,
    messages: user,
    ...extra,
  });
}

const overloaded = () =>
  new ProviderError({ provider: 'test', code: 'overloaded', message: 'overloaded_error', retryable: true });

describe('streamLoop: the events of a run', () => {
  it('streams each turn: model deltas, turn-end, verdict and result per call, reply, loop-end', async () => {
    const script = [
      turnWith([{ type: 'text', text: 'Je cherche.' }, call('toolu_1', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('Le dossier A-1234 est ouvert.'),
    ];
    const stream = streamLoop({
      model: streaming(script, 4),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      runId: 'run-1',
    });
    const events = await collect(stream);
    expect(shape(events)).toEqual([
      'turn-start:1',
      'text-delta:1*',
      'tool-call-start:1',
      'tool-call-delta:1*',
      'tool-call-end:1',
      'turn-end:1',
      'call-verdict:1',
      'tool-result:1',
      'reply:1',
      'turn-start:2',
      'text-delta:2*',
      'turn-end:2',
      'loop-end:completed',
    ]);
    const deltas = (turn: number, type: 'text-delta' | 'tool-call-delta') =>
      events
        .filter((event) => turnOf(event) === turn && event.type === type)
        .map((event) =>
          event.type === 'text-delta' ? event.text : event.type === 'tool-call-delta' ? event.argumentsDelta : '',
        );
    expect(deltas(1, 'text-delta')).toEqual(['Je c', 'herc', 'he.']);
    expect(deltas(1, 'tool-call-delta').join('')).toBe('{"numero":"A-1234"}');
    expect(deltas(2, 'text-delta').join('')).toBe('Le dossier A-1234 est ouvert.');
    expect(events.every((event) => event.runId === 'run-1')).toBe(true);

    const verdict = events.find((event) => event.type === 'call-verdict');
    expect(verdict).toMatchObject({ index: 0, call: { id: 'toolu_1' }, verdict: { kind: 'executed' } });
    const reply = events.find((event) => event.type === 'reply');
    const toolResult = events.find((event) => event.type === 'tool-result');
    expect(reply?.type === 'reply' && reply.message.content).toEqual([
      toolResult?.type === 'tool-result' && toolResult.result,
    ]);

    // The same run as runLoop, to the letter.
    const result = await stream.result;
    const end = events.at(-1);
    expect(end?.type === 'loop-end' && end.result).toBe(result);
    const expected = await runLoop({
      model: scripted(script),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      runId: 'run-1',
    });
    expect(result).toEqual(expected);
    expect(result.text).toBe('Le dossier A-1234 est ouvert.');
  });

  it('synthesises the events from generate when the model does not stream: text as one delta, start/end per call', async () => {
    const model = scripted([
      turnWith([{ type: 'text', text: 'Je cherche.' }, call('c1', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('Fini.'),
    ]);
    expect(model.stream).toBeUndefined();
    const stream = streamLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user });
    const events = await collect(stream);
    const firstTurn = events.filter((event) => turnOf(event) === 1 && event.type !== 'turn-start');
    expect(firstTurn.slice(0, 4)).toMatchObject([
      { type: 'text-delta', text: 'Je cherche.' },
      { type: 'tool-call-start', id: 'c1', name: 'chercher_dossier', index: 0 },
      { type: 'tool-call-end', id: 'c1', name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { type: 'turn-end', incompleteToolCallIds: [] },
    ]);
    expect(events.some((event) => event.type === 'tool-call-delta')).toBe(false);
    expect((await stream.result).status).toBe('completed');
  });

  it('reports each verdict as soon as its call settles, while a slower call of the turn still runs', async () => {
    const release = deferred();
    const slow = slowTool(release.promise);
    const model = streaming([callsTurn([call('s', 'slow', {}), call('e', 'echo', { text: 'vite' })]), textTurn('ok')]);
    const stream = streamLoop({ model, catalogue: createCatalogue([slow, echoTool]), session: reader, messages: user });
    const order: string[] = [];
    for await (const event of stream) {
      if (event.type === 'call-verdict' || event.type === 'tool-result') order.push(`${event.type} ${event.index}`);
      // The slow call is released only once the fast one has been reported: reporting after the whole turn
      // settled could never get here.
      if (event.type === 'tool-result' && event.index === 1) release.resolve();
    }
    expect(order).toEqual(['call-verdict 1', 'tool-result 1', 'call-verdict 0', 'tool-result 0']);
    const [reply] = replies((await stream.result).messages);
    expect(reply?.content.map((part) => part.callId)).toEqual(['s', 'e']);
  });

  it('ends with max_turns like runLoop, through the generate fallback', async () => {
    const stream = streamLoop({
      model: alwaysCalling('chercher_dossier', { numero: 'A-1234' }),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      maxTurns: 2,
    });
    const events = await collect(stream);
    expect(events.filter((event) => event.type === 'reply')).toHaveLength(2);
    expect(shape(events).at(-1)).toBe('loop-end:max_turns');
  });

  it('pauses on an irreversible call: its verdict is streamed, it has no tool-result, loop-end carries the paused run', async () => {
    const runs: unknown[] = [];
    const session = createSession({ id: 's', humanId: 'h', rights: ['payments:write'] });
    const stream = streamLoop({
      model: streaming([
        callsTurn([call('p1', 'virement', { amount: 10, to: 'bob' }), call('e1', 'echo', { text: 'x' })]),
      ]),
      catalogue: createCatalogue([paymentTool(runs), echoTool]),
      session,
      messages: user,
      confirmation: 'pause',
    });
    const events = await collect(stream);
    const verdicts = events.flatMap((event) =>
      event.type === 'call-verdict' ? [[event.index, event.verdict.kind]] : [],
    );
    expect(verdicts.sort()).toEqual([
      [0, 'awaiting_confirmation'],
      [1, 'executed'],
    ]);
    expect(
      events
        .filter((event) => event.type === 'tool-result')
        .map((event) => event.type === 'tool-result' && event.index),
    ).toEqual([1]);
    expect(events.some((event) => event.type === 'reply')).toBe(false);
    const result = await stream.result;
    expect(result.status).toBe('paused');
    expect(result.paused?.pending.map((pending) => pending.callId)).toEqual(['p1']);
    expect(runs).toEqual([]);
  });

  it('throws invalid options at once, before anything runs', () => {
    expect(() =>
      streamLoop({ model: scripted([]), catalogue: frenchCatalogue(), session: reader, messages: user, maxTurns: 0 }),
    ).toThrow(InvalidLoopOptionsError);
  });

  it('keeps the loop-end result when the consumer stops right at loop-end', async () => {
    const stream = streamLoop({
      model: streaming([textTurn('Bonjour.')]),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
    });
    for await (const event of stream) if (event.type === 'loop-end') break;
    const result = await stream.result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Bonjour.');
  });
});

describe('streamLoop: back-pressure and stopping early', () => {
  /** A model that would stream text forever; counts what it produced and whether it was closed. */
  function endlessModel() {
    const probe = { produced: 0, closed: false, signal: undefined as AbortSignal | undefined };
    const model = streamOnly(async function* (request) {
      probe.signal = request.signal;
      try {
        for (let index = 0; ; index += 1) {
          probe.produced += 1;
          yield { type: 'text-delta', text: `${index} ` };
        }
      } finally {
        probe.closed = true;
      }
    });
    return { model, probe };
  }

  it('reads the model stream only as fast as the consumer, and closes it and aborts when the consumer breaks', async () => {
    const { model, probe } = endlessModel();
    const stream = streamLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user });
    let consumed = 0;
    let maxAhead = 0;
    for await (const event of stream) {
      if (event.type !== 'text-delta') continue;
      consumed += 1;
      // A slow consumer: several event-loop turns per event, during which nothing may be read ahead.
      for (let wait = 0; wait < 5; wait += 1) await settle();
      maxAhead = Math.max(maxAhead, probe.produced - consumed);
      if (consumed === 50) break;
    }
    expect(maxAhead).toBe(0);
    expect(probe.produced).toBe(50);
    expect(probe.closed).toBe(true);
    expect(probe.signal?.aborted).toBe(true);
    const result = await stream.result;
    expect(result.status).toBe('aborted');
    expect(result.messages).toEqual(user);
  });

  it('stopping while calls run aborts the running tools, waits for them, journals them and answers every call', async () => {
    const journal = new InMemoryJournal();
    const seen: { signal?: AbortSignal } = {};
    const waiting = untilAbortedTool(seen);
    const model = streaming([
      callsTurn([call('w', 'attendre', {}), call('e', 'echo', { text: 'x' })]),
      textTurn('never'),
    ]);
    const stream = streamLoop({
      model,
      catalogue: createCatalogue([waiting, echoTool]),
      session: reader,
      messages: user,
      journal,
    });
    for await (const event of stream) if (event.type === 'call-verdict') break;
    expect(seen.signal?.aborted).toBe(true);
    expect(journal.entries.map((entry) => [entry.callId, entry.verdict]).sort()).toEqual([
      ['e', 'executed'],
      ['w', 'aborted'],
    ]);
    const result = await stream.result;
    expect(result.status).toBe('aborted');
    expect(model.requests).toHaveLength(1);
    expect(result.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { callId: 'w', isError: true },
        { callId: 'e', isError: false },
      ],
    });
  });
  it('stopping between the model turn and its calls runs none of them, yet answers each (aborted, journaled)', async () => {
    const runs: unknown[] = [];
    const journal = new InMemoryJournal();
    const model = streaming([callsTurn([call('c1', 'noter', { note: 'a' }), call('c2', 'noter', { note: 'b' })])]);
    const stream = notingStream(model, runs, { journal });
    for await (const event of stream) if (event.type === 'turn-end') break;
    expect(runs).toEqual([]);
    expect(journal.entries.map((entry) => [entry.callId, entry.verdict])).toEqual([
      ['c1', 'aborted'],
      ['c2', 'aborted'],
    ]);
    const result = await stream.result;
    expect(result.status).toBe('aborted');
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(replies(result.messages)[0]?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['c1', true],
      ['c2', true],
    ]);
  });
});

describe('streamLoop: abort through the signal', () => {
  const abortableStream = (model: Model, controller: AbortController) =>
    streamLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user, signal: controller.signal });

  it('ends with loop-end aborted when the signal fires mid-stream, even if the model keeps streaming', async () => {
    const controller = new AbortController();
    let closed = false;
    const model = streamOnly(async function* () {
      try {
        yield { type: 'text-delta', text: 'a' };
        yield { type: 'text-delta', text: 'b' };
        yield { type: 'tool-call-end', id: 'c1', name: 'noter', input: { note: 'x' } };
      } finally {
        closed = true;
      }
    });
    const stream = abortableStream(model, controller);
    const events = await collect(stream, (event) => {
      if (event.type === 'text-delta') controller.abort();
    });
    expect(shape(events)).toEqual(['turn-start:1', 'text-delta:1', 'loop-end:aborted']);
    expect(closed).toBe(true);
    expect((await stream.result).status).toBe('aborted');
  });

  it('passes the abort to the model request: an adapter answering with an aborted error ends the run as aborted', async () => {
    const controller = new AbortController();
    let requestSignal: AbortSignal | undefined;
    const model = streamOnly(async function* (request) {
      requestSignal = request.signal;
      yield { type: 'text-delta', text: 'a' };
      const aborted = new Promise((resolve) => request.signal?.addEventListener('abort', resolve));
      setImmediate(() => controller.abort());
      await aborted;
      const error = new ProviderError({ provider: 'test', code: 'aborted', message: 'aborted', retryable: false });
      yield { type: 'error', error };
    });
    const stream = abortableStream(model, controller);
    const events = await collect(stream);
    expect(requestSignal?.aborted).toBe(true);
    expect(shape(events)).toEqual(['turn-start:1', 'text-delta:1', 'loop-end:aborted']);
  });

  it('a turn replayed from generate stops at the abort too: no model event after it, no call run', async () => {
    const controller = new AbortController();
    const runs: unknown[] = [];
    const model = scripted([
      turnWith([
        { type: 'text', text: 'Je note.' },
        call('c1', 'noter', { note: 'a' }),
        call('c2', 'noter', { note: 'b' }),
      ]),
      textTurn('never'),
    ]);
    expect(model.stream).toBeUndefined();
    const stream = notingStream(model, runs, { signal: controller.signal });
    const events = await collect(stream, (event) => {
      if (event.type === 'tool-call-start') controller.abort();
    });
    expect(shape(events)).toEqual(['turn-start:1', 'text-delta:1', 'tool-call-start:1', 'loop-end:aborted']);
    expect(runs).toEqual([]);
    expect((await stream.result).status).toBe('aborted');
  });

  it('aborts running tools when the signal fires during a turn, and every call is still answered', async () => {
    const controller = new AbortController();
    const waiting = untilAbortedTool();
    const stream = streamLoop({
      model: streaming([callsTurn([call('w', 'attendre', {})]), textTurn('never')]),
      catalogue: createCatalogue([waiting]),
      session: reader,
      messages: user,
      signal: controller.signal,
    });
    const events = await collect(stream, (event) => {
      if (event.type === 'turn-end') setImmediate(() => controller.abort());
    });
    expect(shape(events).slice(-4)).toEqual(['call-verdict:1', 'tool-result:1', 'reply:1', 'loop-end:aborted']);
    expect(events.find((event) => event.type === 'call-verdict')).toMatchObject({ verdict: { kind: 'aborted' } });
  });
});

describe('streamLoop: calls cut off are reported and never executed', () => {
  const textEnd = (text: string): StreamEvent => ({
    type: 'turn-end',
    turn: textTurn(text),
    incompleteToolCallIds: [],
  });

  it('answers a call the adapter reported incomplete (broken stream) with an error and never runs it', async () => {
    const runs: unknown[] = [];
    const journal = new InMemoryJournal();
    const cutTurn: ModelTurn = {
      content: [
        call('c1', 'noter', { note: 'complet' }),
        call('c2', 'noter', undefined, { rawInput: '{"note": "coup', inputError: 'Unterminated string in JSON' }),
      ],
      stopReason: { unified: 'error', raw: undefined },
      usage: textTurn('').usage,
    };
    const model = eventsModel([
      [
        { type: 'tool-call-start', id: 'c1', name: 'noter', index: 0 },
        { type: 'tool-call-delta', id: 'c1', argumentsDelta: '{"note": "complet"}' },
        { type: 'tool-call-end', id: 'c1', name: 'noter', input: { note: 'complet' } },
        { type: 'tool-call-start', id: 'c2', name: 'noter', index: 1 },
        { type: 'tool-call-delta', id: 'c2', argumentsDelta: '{"note": "coup' },
        { type: 'turn-end', turn: cutTurn, incompleteToolCallIds: ['c2'] },
      ],
      [textEnd('Je réessaie plus tard.')],
    ]);
    const stream = notingStream(model, runs, { journal });
    const events = await collect(stream);
    expect(events.find((event) => event.type === 'turn-end')).toMatchObject({ incompleteToolCallIds: ['c2'] });
    expect(runs).toEqual([{ note: 'complet' }]);
    const [reply] = replies((await stream.result).messages);
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['c1', false],
      ['c2', true],
    ]);
    expect(toolResultText(reply?.content[1]?.content ?? '')).toContain(
      'broke off before this call to "noter" was complete',
    );
    expect(journal.entries.map((entry) => [entry.callId, entry.verdict, entry.reason])).toEqual(
      expect.arrayContaining([
        ['c1', 'executed', undefined],
        ['c2', 'refused', 'incomplete_call'],
      ]),
    );
  });

  it('never runs a call whose stream did not reach tool-call-end, even when the adapter did not list it', async () => {
    const runs: unknown[] = [];
    const turn = callsTurn([call('c1', 'noter', { note: 'a' }), call('c2', 'noter', { note: 'b' })]);
    const model = eventsModel([
      [
        { type: 'tool-call-start', id: 'c1', name: 'noter', index: 0 },
        { type: 'tool-call-end', id: 'c1', name: 'noter', input: { note: 'a' } },
        { type: 'tool-call-start', id: 'c2', name: 'noter', index: 1 },
        { type: 'turn-end', turn, incompleteToolCallIds: [] },
      ],
      [textEnd('ok')],
    ]);
    const stream = notingStream(model, runs);
    const events = await collect(stream);
    expect(events.find((event) => event.type === 'turn-end')).toMatchObject({ incompleteToolCallIds: ['c2'] });
    expect(runs).toEqual([{ note: 'a' }]);
    const verdicts = events.flatMap((event) => (event.type === 'call-verdict' ? [[event.call.id, event.verdict]] : []));
    expect(verdicts).toContainEqual(['c2', expect.objectContaining({ kind: 'refused', reason: 'incomplete_call' })]);
  });

  it('runs none of the calls of a max_tokens turn, however complete they look', async () => {
    const runs: unknown[] = [];
    const model = streaming([
      callsTurn([call('c1', 'noter', { note: 'a' }), call('c2', 'noter', { note: 'b' })], 'max_tokens'),
      textTurn('ok'),
    ]);
    const stream = notingStream(model, runs);
    const events = await collect(stream);
    expect(events.find((event) => event.type === 'turn-end')).toMatchObject({ incompleteToolCallIds: ['c1', 'c2'] });
    expect(runs).toEqual([]);
    const [reply] = replies((await stream.result).messages);
    expect(reply?.content.every((part) => part.isError)).toBe(true);
    expect(toolResultText(reply?.content[0]?.content ?? '')).toContain('cut off by the output token limit');
  });
});

describe('streamLoop: provider errors', () => {
  it('an error event mid-stream: emits error, throws the ProviderError and rejects result; the complete call never runs', async () => {
    const runs: unknown[] = [];
    const error = overloaded();
    const model = eventsModel([
      [
        { type: 'text-delta', text: 'Je no' },
        { type: 'tool-call-start', id: 'c1', name: 'noter', index: 0 },
        { type: 'tool-call-end', id: 'c1', name: 'noter', input: { note: 'a' } },
        { type: 'error', error },
      ],
    ]);
    const stream = notingStream(model, runs);
    const events: LoopStreamEvent[] = [];
    await expect(collect(stream, (event) => events.push(event))).rejects.toBe(error);
    await expect(stream.result).rejects.toBe(error);
    expect(events.at(-1)).toEqual({
      type: 'error',
      runId: expect.any(String),
      turn: 1,
      error,
      interrupted: expect.objectContaining({ turn: 1, answeredCallIds: [] }),
    });
    expect(runs).toEqual([]);
    // The same semantics as runLoop, which rethrows the provider error.
    const generating: Model = { provider: 'test', modelId: 'g', generate: () => Promise.reject(error) };
    await expect(
      runLoop({ model: generating, catalogue: frenchCatalogue(), session: reader, messages: user }),
    ).rejects.toBe(error);
  });

  it('a stream that throws: the same error event, throw and rejection', async () => {
    const broken = new Error('socket hang up');
    const model = streamOnly(async function* () {
      yield { type: 'text-delta', text: 'Je' };
      throw broken;
    });
    const stream = streamLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user });
    const events: LoopStreamEvent[] = [];
    await expect(collect(stream, (event) => events.push(event))).rejects.toBe(broken);
    await expect(stream.result).rejects.toBe(broken);
    expect(shape(events)).toEqual(['turn-start:1', 'text-delta:1', 'error:1']);
  });

  it('a stream that ends without turn-end or error is a provider error, and its calls never run', async () => {
    const runs: unknown[] = [];
    const model = eventsModel([[{ type: 'tool-call-end', id: 'c1', name: 'noter', input: { note: 'a' } }]]);
    const stream = notingStream(model, runs);
    await expect(collect(stream)).rejects.toBeInstanceOf(ProviderError);
    await expect(stream.result).rejects.toMatchObject({
      code: 'unknown',
      message: expect.stringContaining('without a turn-end'),
    });
    expect(runs).toEqual([]);
  });
});

describe('streamLoop and runLoop on the same random scripts (property-based)', () => {
  const key = (event: { readonly turn: number; readonly index: number }) => `${event.turn}:${event.index}`;
  const journalRows = (entries: readonly JournalEntry[]) =>
    entries
      .map((entry) => JSON.stringify([entry.turn, entry.callId, entry.toolName, entry.verdict, entry.reason ?? null]))
      .sort();

  it('ends with the same LoopResult, the same verdict per call and the same journal, whatever the fragments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(modelTurn, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom('refuse' as const, 'pause' as const),
        async (turns, concurrency, fragmentLength, confirmation) => {
          const script = [...turns, textTurn('done')];
          const base = {
            catalogue: randomCatalogue,
            session: randomSession,
            messages: user,
            concurrency,
            confirmation,
          };
          const runVerdicts = new Map<string, CallEvent['verdict']>();
          const runJournal = new InMemoryJournal();
          const expected = await runLoop({
            ...base,
            model: scripted(script),
            journal: runJournal,
            runId: 'same-run',
            hooks: { onCall: (event) => void runVerdicts.set(key(event), event.verdict) },
          });

          const streamJournal = new InMemoryJournal();
          const hookVerdicts = new Map<string, CallEvent['verdict']>();
          const stream = streamLoop({
            ...base,
            model: streaming(script, fragmentLength),
            journal: streamJournal,
            runId: 'same-run',
            hooks: { onCall: (event) => void hookVerdicts.set(key(event), event.verdict) },
          });
          const events = await collect(stream);
          // A pause's resume token is random: the two runs' pauses are the same but for it.
          const same = anyResumeToken(expected);
          expect(await stream.result).toEqual(same);

          const streamVerdicts = new Map<string, CallEvent['verdict']>();
          for (const event of events) if (event.type === 'call-verdict') streamVerdicts.set(key(event), event.verdict);
          expect(streamVerdicts).toEqual(runVerdicts);
          expect(hookVerdicts).toEqual(runVerdicts);
          expect(journalRows(streamJournal.entries)).toEqual(journalRows(runJournal.entries));

          // Per turn: every call gets one verdict, then (unless held for confirmation) its result at once,
          // and the reply holds those results in call order.
          for (const [position, event] of events.entries()) {
            if (event.type === 'call-verdict' && event.verdict.kind !== 'awaiting_confirmation') {
              expect(events[position + 1]).toMatchObject({
                type: 'tool-result',
                index: event.index,
                result: event.result,
              });
            }
            if (event.type !== 'reply') continue;
            const results = events.filter(
              (other) => other.type === 'tool-result' && other.turn === event.turn,
            ) as Extract<LoopStreamEvent, { type: 'tool-result' }>[];
            const inOrder = [...results].sort((a, b) => a.index - b.index).map((other) => other.result);
            expect(event.message.content).toEqual(inOrder);
          }
          // toEqual, not toMatchObject: the subset walk does not stop at shared references, and the random
          // inputs nest deeper than its recursion can go.
          const last = events.at(-1);
          expect(last?.type).toBe('loop-end');
          expect(last?.type === 'loop-end' ? last.result : undefined).toEqual(same);
        },
      ),
      { numRuns: 100 },
    );
  });
});
