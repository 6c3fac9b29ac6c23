import { describe, expect, it } from 'vitest';
import {
  argumentDigest,
  type CallEvent,
  createCatalogue,
  createSession,
  DEFAULT_CONCURRENCY,
  defineTool,
  everySession,
  InMemoryJournal,
  InvalidLoopOptionsError,
  type LoopOptions,
  type Message,
  ProviderError,
  runLoop,
  streamLoop,
  type ToolMessage,
  toolCallsOf,
  toolResultText,
} from '../../src/index.js';
import { chercherDossier, echoTool, frenchCatalogue, slowTool } from '../fixtures.js';
import { alwaysCalling, call, callsTurn, deferred, scripted, textTurn, turnWith } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Trouve le dossier A-1234.' }];
const reader = createSession({ id: 'session-1', humanId: 'marie', rights: ['dossiers:lire'] });

function replies(messages: readonly Message[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => message.role === 'tool');
}

describe('the seed example: chercher_dossier', () => {
  it('runs the French tool, sends its result back, and completes on the model text', async () => {
    const model = scripted([
      callsTurn([call('toolu_1', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('Le dossier A-1234 est ouvert.'),
    ]);
    const journal = new InMemoryJournal();
    const result = await runLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user, journal });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Le dossier A-1234 est ouvert.');
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const [reply] = replies(result.messages);
    expect(reply?.content).toEqual([
      {
        type: 'tool_result',
        callId: 'toolu_1',
        name: 'chercher_dossier',
        isError: false,
        content: [{ type: 'json', value: { numero: 'A-1234', titre: 'Dossier A-1234', statut: 'ouvert' } }],
      },
    ]);
    // The second request carries the reply, and the tool declaration the model is shown is the seed's.
    expect(model.requests[1]?.messages.at(-1)).toEqual(reply);
    expect(model.requests[0]?.tools).toEqual([
      {
        name: 'chercher_dossier',
        description: 'Look up a case file by its exact number (format X-0000, e.g. "A-1234").',
        inputSchema: {
          type: 'object',
          properties: {
            numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$', description: 'Case number, e.g. A-1234' },
          },
          required: ['numero'],
          additionalProperties: false,
        },
      },
    ]);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    expect(journal.entries.map((entry) => entry.verdict)).toEqual(['executed']);
  });

  it('tells the model how to fix a badly formatted number, and lets it correct itself', async () => {
    const model = scripted([
      callsTurn([call('c1', 'chercher_dossier', { numero: 'a1234', annee: 2024 })]),
      callsTurn([call('c2', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('Trouvé.'),
    ]);
    const result = await runLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user });
    const [first, second] = replies(result.messages);
    expect(first?.content[0]?.isError).toBe(true);
    const text = toolResultText(first?.content[0]?.content ?? '');
    expect(text).toContain('"numero" must match pattern "^[A-Z]-[0-9]{4}$"');
    expect(text).toContain('must not have the property "annee"');
    expect(second?.content[0]?.isError).toBe(false);
    expect(result.status).toBe('completed');
  });
});

describe('pairing', () => {
  const catalogue = createCatalogue([chercherDossier, echoTool]);

  it('answers every call of a turn in one reply, in call order, paired by id', async () => {
    const model = scripted([
      callsTurn([
        call('a', 'echo', { text: 'one' }),
        call('b', 'inventé', {}),
        call('c', 'chercher_dossier', { numero: 'bad' }),
        call('d', 'echo', undefined, { rawInput: '{"text":', inputError: 'Unexpected end of JSON input' }),
        call('e', 'echo', { text: 'five' }),
      ]),
      textTurn('done'),
    ]);
    const result = await runLoop({ model, catalogue, session: reader, messages: user });
    const all = replies(result.messages);
    expect(all).toHaveLength(1);
    expect(all[0]?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['a', false],
      ['b', true],
      ['c', true],
      ['d', true],
      ['e', false],
    ]);
    expect(result.messages[2]).toBe(all[0]);
  });

  it('gives a duplicate id its own refusal so every request still has exactly one result', async () => {
    let runs = 0;
    const counting = defineTool({
      name: 'count',
      description: 'count',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => String(++runs),
    });
    const journal = new InMemoryJournal();
    const model = scripted([
      callsTurn([call('same', 'count', {}), call('same', 'count', {}), call('other', 'count', {})]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([counting]),
      session: reader,
      messages: user,
      journal,
    });
    const reply = replies(result.messages)[0];
    // The repeat gets a distinct id, in its call and its result, so the next request repeats no id.
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['same', false],
      ['same-t1c1', true],
      ['other', false],
    ]);
    const assistant = result.messages[1];
    expect(assistant?.role === 'assistant' && toolCallsOf(assistant.content).map((part) => part.id)).toEqual([
      'same',
      'same-t1c1',
      'other',
    ]);
    expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/reuses the id "same"/);
    expect(runs).toBe(2);
    // The journal is in completion order (calls run concurrently), so compare as a set of attempts.
    expect(
      journal.entries
        .map(
          (entry) =>
            `${entry.callId}${entry.originalCallId === undefined ? '' : ` (was ${entry.originalCallId})`} ${entry.reason ?? entry.verdict}`,
        )
        .sort(),
    ).toEqual(['other executed', 'same executed', 'same-t1c1 (was same) duplicate_call_id']);
    // What the model is asked next holds every id once.
    const next = model.requests[1]?.messages ?? [];
    const ids = next.flatMap((message) =>
      message.role === 'assistant' && typeof message.content !== 'string'
        ? toolCallsOf(message.content).map((part) => part.id)
        : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('replaces a missing, null or earlier-turn id by a stable distinct one, in the call, its result and the journal', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => 'ok',
    });
    const journal = new InMemoryJournal();
    const model = scripted([
      callsTurn([call('c1', 'echo', {}), call(null as unknown as string, 'echo', {}), call('', 'echo', {})]),
      callsTurn([call('c1', 'echo', {})]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([echo]),
      session: reader,
      messages: user,
      journal,
    });
    expect(result.status).toBe('completed');
    const [first, second] = replies(result.messages);
    expect(first?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['c1', false],
      ['call-t1c1', false],
      ['call-t1c2', false],
    ]);
    expect(second?.content.map((part) => [part.callId, part.isError])).toEqual([['c1-t2c0', false]]);
    expect(
      journal.entries
        .map((entry) => [entry.callId, entry.originalCallId])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['c1', undefined],
      ['c1-t2c0', 'c1'],
      ['call-t1c1', null],
      ['call-t1c2', null],
    ]);
    const ids = (model.requests[2]?.messages ?? []).flatMap((message) =>
      message.role === 'assistant' && typeof message.content !== 'string'
        ? toolCallsOf(message.content).map((part) => part.id)
        : [],
    );
    expect(ids).toEqual(['c1', 'call-t1c1', 'call-t1c2', 'c1-t2c0']);
  });

  it('never runs the calls of a turn cut off by max_tokens, and answers each of them', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'write',
      description: 'w',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => {
        ran = true;
      },
    });
    const model = scripted([
      callsTurn([call('x', 'write', { body: 'trunc' }), call('y', 'write', {})], 'max_tokens'),
      textTurn('sorry'),
    ]);
    const journal = new InMemoryJournal();
    const result = await runLoop({
      model,
      catalogue: createCatalogue([tool]),
      session: reader,
      messages: user,
      journal,
    });
    expect(ran).toBe(false);
    const reply = replies(result.messages)[0];
    expect(reply?.content.map((part) => part.isError)).toEqual([true, true]);
    expect(toolResultText(reply?.content[0]?.content ?? '')).toMatch(/cut off by the output token limit/);
    expect(journal.entries.map((entry) => entry.reason)).toEqual(['incomplete_call', 'incomplete_call']);
    expect(result.status).toBe('completed');
  });

  it('keeps text and reasoning parts (with their provider metadata) of a tool turn in the conversation', async () => {
    const turn = turnWith([
      { type: 'reasoning', text: 'need the file', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'text', text: 'Je cherche.' },
      call('c1', 'chercher_dossier', { numero: 'A-1234' }),
    ]);
    const model = scripted([{ ...turn, providerMetadata: { anthropic: { id: 'msg_1' } } }, textTurn('ok')]);
    await runLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user });
    expect(model.requests[1]?.messages[1]).toEqual({
      role: 'assistant',
      content: turn.content,
      providerMetadata: { anthropic: { id: 'msg_1' } },
    });
  });
});

describe('turn limits, abort and errors', () => {
  it('stops with a clear max_turns status, not a crash, after exactly maxTurns model turns', async () => {
    const model = alwaysCalling('echo', { text: 'again' });
    const result = await runLoop({
      model,
      catalogue: createCatalogue([echoTool]),
      session: reader,
      messages: user,
      maxTurns: 3,
    });
    expect(result.status).toBe('max_turns');
    expect(model.requests).toHaveLength(3);
    expect(result.turns).toHaveLength(3);
    expect(result.messages.at(-1)?.role).toBe('tool');
  });

  it('defaults to 10 turns', async () => {
    const model = alwaysCalling('echo', { text: 'again' });
    await runLoop({ model, catalogue: createCatalogue([echoTool]), session: reader, messages: user });
    expect(model.requests).toHaveLength(10);
  });

  it('returns aborted when the signal fires during a tool, with every call still answered', async () => {
    const controller = new AbortController();
    const started = deferred();
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 's',
      inputSchema: { type: 'object' },
      right: everySession,
      run: (_input, { signal }) => {
        toolSignal = signal;
        started.resolve();
        return new Promise(() => {});
      },
    });
    const model = scripted([callsTurn([call('a', 'slow', {}), call('b', 'slow', {})])]);
    const running = runLoop({
      model,
      catalogue: createCatalogue([slow]),
      session: reader,
      messages: user,
      signal: controller.signal,
      concurrency: 1,
    });
    await started.promise;
    controller.abort();
    const result = await running;
    expect(result.status).toBe('aborted');
    expect(toolSignal?.aborted).toBe(true);
    expect(replies(result.messages)[0]?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.signal).toBe(controller.signal);
  });

  it('returns aborted when the model call fails because of the abort, and before asking at all', async () => {
    const controller = new AbortController();
    const model = scripted([
      () => {
        controller.abort();
        throw new ProviderError({ provider: 'test', code: 'aborted', message: 'aborted', retryable: false });
      },
    ]);
    const options = { model, catalogue: frenchCatalogue(), session: reader, messages: user, signal: controller.signal };
    expect((await runLoop(options)).status).toBe('aborted');
    const untouched = scripted([]);
    expect((await runLoop({ ...options, model: untouched })).status).toBe('aborted');
    expect(untouched.requests).toHaveLength(0);
  });

  it('rethrows provider errors: they are not model mistakes', async () => {
    const overloaded = new ProviderError({ provider: 'test', code: 'overloaded', message: 'busy', retryable: true });
    const model = scripted([
      () => {
        throw overloaded;
      },
    ]);
    await expect(runLoop({ model, catalogue: frenchCatalogue(), session: reader, messages: user })).rejects.toBe(
      overloaded,
    );
  });

  it('applies toolTimeoutMs to every call', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'h',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => new Promise(() => {}),
    });
    const journal = new InMemoryJournal();
    const model = scripted([callsTurn([call('a', 'hang', {})]), textTurn('gave up')]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([hang]),
      session: reader,
      messages: user,
      toolTimeoutMs: 5,
      journal,
    });
    expect(result.status).toBe('completed');
    expect(journal.entries[0]?.verdict).toBe('timed_out');
  });

  it.each([
    [{ maxTurns: 0 }, 'maxTurns'],
    [{ maxTurns: 1.5 }, 'maxTurns'],
    [{ concurrency: 0 }, 'concurrency'],
    [{ toolTimeoutMs: -1 }, 'toolTimeoutMs'],
  ] as const)('rejects impossible options %j', async (bad, option) => {
    const options: LoopOptions = {
      model: scripted([]),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      ...bad,
    };
    await expect(runLoop(options)).rejects.toBeInstanceOf(InvalidLoopOptionsError);
    await expect(runLoop(options)).rejects.toMatchObject({ option });
  });
});

describe('concurrency bound (measured with in-flight counters)', () => {
  function gauge() {
    const state = { inFlight: 0, max: 0, order: [] as string[] };
    const tool = defineTool({
      name: 'work',
      description: 'w',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      right: everySession,
      run: async ({ id }) => {
        state.inFlight += 1;
        state.max = Math.max(state.max, state.inFlight);
        state.order.push(`start ${id}`);
        // Yield to the event loop so that every call the bound allows has the chance to start.
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
        state.order.push(`end ${id}`);
        state.inFlight -= 1;
        return id;
      },
    });
    return { state, catalogue: createCatalogue([tool]) };
  }
  const sixCalls = ['1', '2', '3', '4', '5', '6'].map((id) => call(`c${id}`, 'work', { id }));
  // More calls than the default bound, so that the default shows.
  const twentyCalls = Array.from({ length: 20 }, (_, index) =>
    call(`c${index + 1}`, 'work', { id: String(index + 1) }),
  );

  it.each([
    [1, 1],
    [3, 3],
    [undefined, DEFAULT_CONCURRENCY],
    [Infinity, 20],
  ])('concurrency %s lets at most %i calls run at once', async (concurrency, expected) => {
    const { state, catalogue } = gauge();
    const model = scripted([callsTurn(twentyCalls), textTurn('ok')]);
    const result = await runLoop({
      model,
      catalogue,
      session: reader,
      messages: user,
      ...(concurrency === undefined ? {} : { concurrency }),
    });
    expect(state.max).toBe(expected);
    // Results stay in call order whatever order the calls finished in.
    expect(replies(result.messages)[0]?.content.map((part) => part.callId)).toEqual(twentyCalls.map((c) => c.id));
  });

  it('runs an ordinary turn of 8 I/O-bound calls in one wave by default', async () => {
    expect(DEFAULT_CONCURRENCY).toBeGreaterThanOrEqual(8);
    const { state, catalogue } = gauge();
    const model = scripted([callsTurn(twentyCalls.slice(0, 8)), textTurn('ok')]);
    await runLoop({ model, catalogue, session: reader, messages: user });
    expect(state.max).toBe(8);
  });

  it('concurrency 1 is strictly sequential', async () => {
    const { state, catalogue } = gauge();
    const model = scripted([callsTurn(sixCalls.slice(0, 3)), textTurn('ok')]);
    await runLoop({ model, catalogue, session: reader, messages: user, concurrency: 1 });
    expect(state.order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});

describe('hooks and request shape', () => {
  // Calls now report as they settle; with concurrency 1 that is call order (before: always call order).
  it('reports each turn, each call (in call order when they run one after the other) and each reply', async () => {
    const events: string[] = [];
    const verdicts: CallEvent['verdict'][] = [];
    const model = scripted([
      callsTurn([call('a', 'chercher_dossier', { numero: 'A-1234' }), call('b', 'nope', {})]),
      textTurn('fin'),
    ]);
    await runLoop({
      model,
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      runId: 'run-42',
      concurrency: 1,
      hooks: {
        onTurn: ({ turn, runId }) => {
          events.push(`turn ${turn} ${runId}`);
        },
        onCall: ({ call: c, verdict, index }) => {
          events.push(`call ${c.id} #${index}`);
          verdicts.push(verdict);
        },
        onResult: ({ message }) => {
          events.push(`reply ${message.content.length}`);
        },
      },
    });
    expect(events).toEqual(['turn 1 run-42', 'call a #0', 'call b #1', 'reply 2', 'turn 2 run-42']);
    expect(verdicts.map((verdict) => verdict.kind)).toEqual(['executed', 'refused']);
  });

  it('fires onCall as each call settles, while slower calls of the turn are still running', async () => {
    const release = deferred();
    const seenWhileBlocked: string[] = [];
    const slow = slowTool(release.promise);
    const model = scripted([
      callsTurn([call('s', 'slow', {}), call('e', 'echo', { text: 'vite' }), call('u', 'unknown', {})]),
      textTurn('ok'),
    ]);
    const order: string[] = [];
    const result = await runLoop({
      model,
      catalogue: createCatalogue([slow, echoTool]),
      session: reader,
      messages: user,
      hooks: {
        onCall: ({ call: c, index }) => {
          order.push(`${c.id}#${index}`);
          if (c.id !== 's') seenWhileBlocked.push(c.id);
          // Both fast calls have been reported while the slow one still waits: release it now.
          if (seenWhileBlocked.length === 2) release.resolve();
        },
      },
    });
    expect(order.at(-1)).toBe('s#0');
    expect([...order].sort()).toEqual(['e#1', 's#0', 'u#2']);
    // The reply is still in call order.
    expect(replies(result.messages)[0]?.content.map((part) => part.callId)).toEqual(['s', 'e', 'u']);
  });

  it('passes the same frozen declarations array every turn, plus system, tool choice and options', async () => {
    const model = scripted([callsTurn([call('a', 'chercher_dossier', { numero: 'A-1234' })]), textTurn('ok')]);
    const catalogue = frenchCatalogue();
    await runLoop({
      model,
      catalogue,
      session: reader,
      messages: user,
      system: 'Tu es un greffier.',
      toolChoice: 'auto',
      parallelToolCalls: false,
      maxOutputTokens: 512,
      temperature: 0,
      providerOptions: { anthropic: { thinking: { type: 'disabled' } } },
    });
    expect(model.requests[0]?.tools).toBe(catalogue.declarations);
    expect(model.requests[1]?.tools).toBe(catalogue.declarations);
    expect(model.requests[0]).toMatchObject({
      system: 'Tu es un greffier.',
      toolChoice: 'auto',
      parallelToolCalls: false,
      maxOutputTokens: 512,
      temperature: 0,
      providerOptions: { anthropic: { thinking: { type: 'disabled' } } },
    });
    // Each request gets its own snapshot of the conversation.
    expect(model.requests[0]?.messages).toHaveLength(1);
    expect(model.requests[1]?.messages).toHaveLength(3);
  });
});

describe('the input digest without a journal', () => {
  it('is the argument digest when read from onCall and from the call-verdict events of a stream', async () => {
    const input = { numero: 'A-1234' };
    const seen: CallEvent[] = [];
    const result = await runLoop({
      model: scripted([callsTurn([call('toolu_1', 'chercher_dossier', input)]), textTurn('ok')]),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
      hooks: { onCall: (event) => void seen.push(event) },
    });
    expect(result.status).toBe('completed');
    expect(seen.map((event) => event.inputDigest)).toEqual([argumentDigest(input)]);
    expect({ ...seen[0] }).toMatchObject({ inputDigest: argumentDigest(input), index: 0 });

    const verdicts: unknown[] = [];
    const stream = streamLoop({
      model: scripted([callsTurn([call('toolu_1', 'chercher_dossier', input)]), textTurn('ok')]),
      catalogue: frenchCatalogue(),
      session: reader,
      messages: user,
    });
    for await (const event of stream) if (event.type === 'call-verdict') verdicts.push({ ...event });
    expect(verdicts).toMatchObject([{ type: 'call-verdict', inputDigest: argumentDigest(input) }]);
  });
});
