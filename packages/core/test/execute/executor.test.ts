import { describe, expect, it } from 'vitest';
import {
  argumentDigest,
  createCatalogue,
  createSession,
  defineTool,
  type ExecutionContext,
  everySession,
  executeCall,
  InMemoryConfirmations,
  InMemoryJournal,
  jsonDigest,
  toolError,
  toolRefusal,
  toolResultText,
} from '../../src/index.js';
import { chercherDossier, paymentTool } from '../fixtures.js';
import { call, deferred, settle } from '../support.js';

function setup(options: { rights?: string[]; confirmations?: InMemoryConfirmations } = {}) {
  const runs: unknown[] = [];
  const catalogue = createCatalogue([chercherDossier, paymentTool(runs)]);
  const confirmations = options.confirmations ?? new InMemoryConfirmations();
  const session = createSession({
    id: 's1',
    humanId: 'alice',
    rights: options.rights ?? ['dossiers:lire', 'payments:write'],
    confirmations,
  });
  const journal = new InMemoryJournal();
  const context: ExecutionContext = { catalogue, session, journal, runId: 'run-1', turn: 1 };
  return { runs, catalogue, session, journal, context, confirmations };
}

describe('the four checks, in order', () => {
  it('1 before 2: an unknown tool with an invalid input is refused as unknown', async () => {
    const { context, journal } = setup();
    const outcome = await executeCall(call('c1', 'chercher_dosier', { numero: 42, extra: true }), context);
    expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'unknown_tool' });
    expect(outcome.result).toMatchObject({ callId: 'c1', name: 'chercher_dosier', isError: true });
    expect(toolResultText(outcome.result.content)).toContain('Available tools: chercher_dossier, virement');
    expect(journal.entries).toHaveLength(1);
    expect(journal.entries[0]).toMatchObject({
      verdict: 'refused',
      reason: 'unknown_tool',
      toolName: 'chercher_dosier',
    });
  });

  it('1 before 2: unparsable provider arguments on an unknown tool are still "unknown tool"', async () => {
    const { context } = setup();
    const malformed = call('c1', 'nope', undefined, {
      rawInput: '{"numero": ',
      inputError: 'Unexpected end of JSON input',
    });
    expect((await executeCall(malformed, context)).verdict).toMatchObject({ reason: 'unknown_tool' });
  });

  it('2: unparsable provider arguments on a known tool are refused as invalid input, raw text journaled', async () => {
    const { context, journal } = setup();
    const malformed = call('c1', 'chercher_dossier', undefined, {
      rawInput: '{"numero": "A-12',
      inputError: 'Unterminated string in JSON',
    });
    const outcome = await executeCall(malformed, context);
    expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'invalid_input' });
    expect(toolResultText(outcome.result.content)).toMatch(/not valid JSON \(Unterminated string in JSON\)/);
    expect(journal.entries[0]).toMatchObject({ input: null, inputDigest: null, rawInput: '{"numero": "A-12' });
  });

  it('2: renders every schema error as one actionable sentence', async () => {
    const { context } = setup();
    const outcome = await executeCall(call('c1', 'virement', { amount: 0, currency: 'EUR' }), context);
    const text = toolResultText(outcome.result.content);
    expect(outcome.verdict).toMatchObject({ reason: 'invalid_input' });
    expect(text).toContain('is missing the required property "to"');
    expect(text).toContain('must not have the property "currency"; remove it (allowed: "amount", "to")');
    expect(text).toContain('"amount" must be >= 1');
    expect(text.trim().split(/\.\s/).length).toBeLessThanOrEqual(2);
    expect(text).toMatch(/call "virement" again\.$/);
  });

  it('2 before 3 and 4: an input failing the schema is never authorised, and no confirmation is spent', async () => {
    const confirmations = new InMemoryConfirmations();
    const bad = { amount: 'ten', to: 'bob' };
    confirmations.confirm('virement', bad, { humanId: 'alice', anyRun: true });
    const { context, runs } = setup({ rights: [], confirmations });
    const outcome = await executeCall(call('c1', 'virement', bad), context);
    expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'invalid_input' });
    expect(confirmations.outstanding()).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it('3: a missing right is refused even when the model claims admin rights in its text and arguments', async () => {
    const { context, runs } = setup({ rights: ['dossiers:lire'] });
    const claim = call('c1', 'virement', { amount: 10, to: 'bob' });
    const outcome = await executeCall(claim, {
      ...context,
      // Nothing the model writes reaches the session; this is the only place rights come from.
      session: createSession({ id: 's1', humanId: 'alice', rights: ['dossiers:lire'] }),
    });
    expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'missing_right' });
    expect(toolResultText(outcome.result.content)).toContain('requires the right "payments:write"');
    expect(runs).toEqual([]);
    const sneaky = call('c2', 'chercher_dossier', { numero: 'A-1234', rights: ['admin'], role: 'admin' });
    expect((await executeCall(sneaky, context)).verdict).toMatchObject({ reason: 'invalid_input' });
  });

  it('3 before 4: without the right, an irreversible call is refused for the right and keeps its confirmation', async () => {
    const confirmations = new InMemoryConfirmations();
    confirmations.confirm('virement', { amount: 10, to: 'bob' }, { humanId: 'alice', anyRun: true });
    const { context } = setup({ rights: [], confirmations });
    const outcome = await executeCall(call('c1', 'virement', { amount: 10, to: 'bob' }), context);
    expect(outcome.verdict).toMatchObject({ reason: 'missing_right' });
    expect(confirmations.outstanding()).toHaveLength(1);
  });

  it('4: an irreversible call without confirmation never runs', async () => {
    const { context, runs, journal } = setup();
    const outcome = await executeCall(call('c1', 'virement', { amount: 10, to: 'bob' }), context);
    expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'confirmation_required' });
    expect(toolResultText(outcome.result.content)).toMatch(/ask them to confirm/);
    expect(runs).toEqual([]);
    expect(journal.entries[0]).toMatchObject({ reason: 'confirmation_required', inputDigest: outcome.inputDigest });
  });

  it('4: a confirmation covers these exact arguments only, once, whatever the key order', async () => {
    const confirmations = new InMemoryConfirmations();
    confirmations.confirm('virement', { amount: 10, to: 'bob' }, { humanId: 'alice', anyRun: true });
    const { context, runs } = setup({ confirmations });
    const bigger = await executeCall(call('c1', 'virement', { amount: 1000, to: 'bob' }), context);
    expect(bigger.verdict).toMatchObject({ reason: 'confirmation_required' });
    const exact = await executeCall(call('c2', 'virement', { to: 'bob', amount: 10 }), context);
    expect(exact.verdict).toEqual({ kind: 'executed', isError: false });
    const again = await executeCall(call('c3', 'virement', { amount: 10, to: 'bob' }), context);
    expect(again.verdict).toMatchObject({ reason: 'confirmation_required' });
    expect(runs).toEqual([{ to: 'bob', amount: 10 }]);
  });

  it('4: a confirmation for one tool does not cover another tool with the same arguments', async () => {
    const confirmations = new InMemoryConfirmations([
      { toolName: 'autre_outil', inputDigest: argumentDigest({ amount: 10, to: 'bob' }), humanId: 'alice' },
    ]);
    const { context } = setup({ confirmations });
    expect((await executeCall(call('c1', 'virement', { amount: 10, to: 'bob' }), context)).verdict).toMatchObject({
      reason: 'confirmation_required',
    });
  });

  it('4: a confirmation store that fails is treated as "not confirmed"', async () => {
    const { context } = setup();
    const broken = createSession({
      id: 's1',
      humanId: 'alice',
      rights: ['payments:write'],
      confirmations: {
        grant: () => {},
        consume: () => Promise.reject(new Error('db down')),
      },
    });
    const outcome = await executeCall(call('c1', 'virement', { amount: 10, to: 'bob' }), {
      ...context,
      session: broken,
    });
    expect(outcome.verdict).toMatchObject({ reason: 'confirmation_required' });
  });

  it('in pause mode an unconfirmed irreversible call is held, not refused, and not run', async () => {
    const { context, runs } = setup();
    const outcome = await executeCall(call('c1', 'virement', { amount: 10, to: 'bob' }), {
      ...context,
      confirmation: 'pause',
    });
    expect(outcome.verdict).toEqual({
      kind: 'awaiting_confirmation',
      inputDigest: argumentDigest({ amount: 10, to: 'bob' }),
    });
    expect(runs).toEqual([]);
  });
});

describe('running the tool', () => {
  const session = createSession({ id: 's', humanId: 'h', rights: [] });

  function single(run: Parameters<typeof defineTool>[0]['run'], timeoutMs?: number) {
    const tool = defineTool({
      name: 't',
      description: 't',
      inputSchema: { type: 'object' },
      right: everySession,
      run,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    const journal = new InMemoryJournal();
    return { journal, context: { catalogue: createCatalogue([tool]), session, journal } satisfies ExecutionContext };
  }

  it('turns a thrown error into an isError result without the stack, keeping detail for the journal', async () => {
    const { context, journal } = single(() => {
      throw new TypeError('connection refused at db.internal:5432');
    });
    const outcome = await executeCall(call('c1', 't', {}), context);
    expect(outcome.verdict).toEqual({ kind: 'failed', message: 'TypeError: connection refused at db.internal:5432' });
    const text = toolResultText(outcome.result.content);
    expect(outcome.result.isError).toBe(true);
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).toMatch(/tell the user/);
    expect(journal.entries[0]).toMatchObject({
      verdict: 'failed',
      detail: 'TypeError: connection refused at db.internal:5432',
    });
  });

  it('also catches rejected promises and non-Error throws', async () => {
    const rejected = single(() => Promise.reject('nope'));
    expect((await executeCall(call('c1', 't', {}), rejected.context)).verdict.kind).toBe('failed');
  });

  it('abandons a tool that exceeds its timeout and aborts the signal it was given', async () => {
    let seen: AbortSignal | undefined;
    const { context, journal } = single((_input, { signal }) => {
      seen = signal;
      return new Promise(() => {});
    }, 5);
    const outcome = await executeCall(call('c1', 't', {}), context);
    expect(outcome.verdict).toEqual({ kind: 'timed_out', timeoutMs: 5 });
    expect(outcome.result.isError).toBe(true);
    expect(toolResultText(outcome.result.content)).toMatch(/may or may not have had an effect/);
    expect(seen?.aborted).toBe(true);
    expect(journal.entries[0]?.verdict).toBe('timed_out');
  });

  it('uses the context timeout when the tool sets none', async () => {
    const { context } = single(() => new Promise(() => {}));
    expect((await executeCall(call('c1', 't', {}), { ...context, timeoutMs: 5 })).verdict.kind).toBe('timed_out');
  });

  it('honours abort: stops waiting, forwards the abort to the tool, answers isError', async () => {
    const started = deferred();
    let seen: AbortSignal | undefined;
    const { context } = single((_input, { signal }) => {
      seen = signal;
      started.resolve();
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const pending = executeCall(call('c1', 't', {}), { ...context, signal: controller.signal });
    await started.promise;
    controller.abort(new Error('user pressed stop'));
    const outcome = await pending;
    expect(outcome.verdict).toEqual({ kind: 'aborted' });
    expect(outcome.result.isError).toBe(true);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toEqual(new Error('user pressed stop'));
  });

  it('does not start a tool when the signal is already aborted', async () => {
    let ran = false;
    const { context } = single(() => {
      ran = true;
    });
    const outcome = await executeCall(call('c1', 't', {}), { ...context, signal: AbortSignal.abort() });
    expect(outcome.verdict.kind).toBe('aborted');
    await settle();
    expect(ran).toBe(false);
  });

  it('does not start a tool when the signal fires while the checks are running', async () => {
    let ran = false;
    const controller = new AbortController();
    const abortingSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: async (value: unknown) => {
          controller.abort();
          return { value };
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const tool = defineTool({
      name: 't',
      description: 't',
      inputSchema: abortingSchema,
      right: everySession,
      run: () => {
        ran = true;
      },
    });
    const context = { catalogue: createCatalogue([tool]), session, signal: controller.signal };
    expect((await executeCall(call('c1', 't', {}), context)).verdict.kind).toBe('aborted');
    await settle();
    expect(ran).toBe(false);
  });

  it('sends strings as text, values as one json part (rendered once as JSON text), and honours deliberate error results', async () => {
    const text = single(() => 'bonjour');
    expect((await executeCall(call('c', 't', {}), text.context)).result.content).toBe('bonjour');
    const value = single(() => ({ numero: 'A-1234', pages: [1, 2] }));
    const structured = (await executeCall(call('c', 't', {}), value.context)).result.content;
    expect(structured).toEqual([{ type: 'json', value: { numero: 'A-1234', pages: [1, 2] } }]);
    expect(toolResultText(structured)).toBe('{"numero":"A-1234","pages":[1,2]}');
    const deliberate = single(() => toolError('Aucun dossier A-9999.'));
    const outcome = await executeCall(call('c', 't', {}), deliberate.context);
    expect(outcome.result).toMatchObject({ isError: true, content: 'Aucun dossier A-9999.' });
    expect(outcome.verdict).toEqual({ kind: 'executed', isError: true });
    const nothing = single(() => undefined);
    expect((await executeCall(call('c', 't', {}), nothing.context)).result.content).toMatch(/no output/);
  });

  it('journals a refusal by the tool itself (toolRefusal) as refused, never executed', async () => {
    const refusing = single(() => toolRefusal('The definition changed; nothing was sent.'));
    const outcome = await executeCall(call('c', 't', {}), refusing.context);
    expect(outcome.verdict).toEqual({
      kind: 'refused',
      reason: 'tool_refused',
      message: 'The definition changed; nothing was sent.',
    });
    expect(outcome.result).toMatchObject({ isError: true, content: 'The definition changed; nothing was sent.' });
    expect(refusing.journal.entries.map((entry) => [entry.verdict, entry.reason])).toEqual([
      ['refused', 'tool_refused'],
    ]);
    // A look-alike without the marker is an ordinary value.
    const lookalike = single(() => ({ message: 'not a refusal' }));
    expect((await executeCall(call('c', 't', {}), lookalike.context)).verdict.kind).toBe('executed');
  });

  it('reports a value JSON cannot carry as a failure instead of throwing', async () => {
    const bigint = single(() => ({ n: 10n }));
    const outcome = await executeCall(call('c', 't', {}), bigint.context);
    expect(outcome.verdict.kind).toBe('failed');
    expect(outcome.result.isError).toBe(true);
  });

  it('gives the tool a private copy of its input: mutating it changes neither the call nor the journal', async () => {
    const { context, journal } = single((input) => {
      (input as { tampered?: boolean }).tampered = true;
      return 'ok';
    });
    const original = { a: 1 };
    await executeCall(call('c', 't', original), context);
    expect(original).toEqual({ a: 1 });
    expect(journal.entries[0]?.input).toEqual({ a: 1 });
  });

  it('passes the session, call id, run id and turn to the tool', async () => {
    let seen: unknown;
    const { context } = single((_input, toolContext) => {
      seen = { ...toolContext, signal: typeof toolContext.signal };
      return 'ok';
    });
    await executeCall(call('c9', 't', {}), { ...context, runId: 'r', turn: 3 });
    expect(seen).toEqual({ session, signal: 'object', callId: 'c9', runId: 'r', toolName: 't', turn: 3 });
  });
});

describe('journal entries', () => {
  it('hold session, human, call, verdict, digests and timing for an executed call', async () => {
    const { context, journal } = setup();
    await executeCall(call('c1', 'chercher_dossier', { numero: 'A-1234' }), context);
    const [entry] = journal.entries;
    expect(entry).toMatchObject({
      seq: 1,
      runId: 'run-1',
      sessionId: 's1',
      humanId: 'alice',
      turn: 1,
      callId: 'c1',
      toolName: 'chercher_dossier',
      input: { numero: 'A-1234' },
      inputDigest: argumentDigest({ numero: 'A-1234' }),
      verdict: 'executed',
    });
    expect(entry?.outputDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(entry?.at ?? ''))).toBe(false);
    expect(JSON.parse(JSON.stringify(entry))).toEqual(entry);
    expect(Object.isFrozen(entry)).toBe(true);
  });

  it('keep their fields in one order, and digests that verify against the call and the result', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: { type: 'object', additionalProperties: true },
      right: everySession,
      run: (value) => ({ echoed: value, note: 'done' }),
    });
    const { context, journal } = setup();
    const echoing = { ...context, catalogue: createCatalogue([echo]) };
    const input = { numero: 'A-1234', zeta: [{ b: 2, a: 1 }], alpha: { y: true, x: null } };
    const sent = jsonDigest(input);
    const executed = await executeCall(call('c1', 'echo', input), echoing);
    const refused = await executeCall(
      { type: 'tool_call', id: 'c2', name: 'echo', input: {}, inputError: 'bad', rawInput: '{"numero":' },
      echoing,
    );
    const [first, second] = journal.entries;
    // Every entry's fields come in this order, the optional ones in their places, `seq` last.
    const always = [
      'at',
      'runId',
      'sessionId',
      'humanId',
      'turn',
      'callId',
      'toolName',
      'input',
      'inputDigest',
      'verdict',
      'durationMs',
    ];
    expect(Object.keys(first ?? {})).toEqual([...always, 'outputDigest', 'seq']);
    expect(first?.input).toEqual(input);
    // The journal's input is its own canonical copy (sorted keys), whatever happens to the call's afterwards.
    input.alpha.y = false;
    expect(JSON.stringify(first?.input)).toBe('{"alpha":{"x":null,"y":true},"numero":"A-1234","zeta":[{"a":1,"b":2}]}');
    expect(first?.inputDigest).toBe(sent);
    expect(jsonDigest(first?.input)).toBe(sent);
    expect(first?.outputDigest).toBe(jsonDigest(executed.result.content));
    expect(Object.keys(second ?? {})).toEqual([...always, 'rawInput', 'reason', 'seq']);
    expect(second).toMatchObject({ input: null, inputDigest: null, rawInput: '{"numero":', reason: 'invalid_input' });
    expect(refused.verdict.kind).toBe('refused');
  });

  it('a journal that fails stops the circuit with a typed error (an unrecorded call must not pass)', async () => {
    const { context } = setup();
    const failing = { append: () => Promise.reject(new Error('disk full')) };
    await expect(
      executeCall(call('c1', 'chercher_dossier', { numero: 'A-1234' }), { ...context, journal: failing }),
    ).rejects.toMatchObject({ code: 'journal_write_failed', kind: 'circuit', retryable: false });
  });

  it("a journal's failure names the run, passes on whether the store may recover by itself, and says what to do", async () => {
    const { context } = setup();
    const away = Object.assign(new Error('the connection to the database was lost.'), { retryable: true });
    const failing = { append: () => Promise.reject(away) };
    const attempt = executeCall(call('c1', 'chercher_dossier', { numero: 'A-1234' }), {
      ...context,
      runId: 'run-42',
      journal: failing,
    });
    await expect(attempt).rejects.toMatchObject({ callId: 'c1', runId: 'run-42', retryable: true, cause: away });
    await expect(attempt).rejects.toThrow(
      /call "c1" of run "run-42": the connection to the database was lost\. .*runner\.recover\("run-42", \{ session \}\)/,
    );
  });
});

describe('answering without a promise', () => {
  it('answers a call at once when the validation, the tool and the journal all answer at once', async () => {
    const { answerCall } = await import('../../src/execute/executor.js');
    const { isPromiseLike } = await import('../../src/async/eventually.js');
    const { context, journal } = setup();
    const outcome = answerCall(call('c1', 'chercher_dossier', { numero: 'A-1234' }), context);
    expect(isPromiseLike(outcome)).toBe(false);
    expect(outcome).toMatchObject({ verdict: { kind: 'executed' }, result: { callId: 'c1', isError: false } });
    expect(journal.entries).toHaveLength(1);
  });

  it('still races an async tool against its timeout', async () => {
    const { answerCall } = await import('../../src/execute/executor.js');
    const slow = defineTool({
      name: 'slow',
      description: 'Never answers.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      right: everySession,
      timeoutMs: 5,
      run: () => new Promise<string>(() => {}),
    });
    const session = createSession({ id: 's', humanId: 'h', rights: [] });
    const pending = answerCall(call('c1', 'slow', {}), { catalogue: createCatalogue([slow]), session });
    expect((await pending).verdict).toEqual({ kind: 'timed_out', timeoutMs: 5 });
  });

  it('gives the tool its own copy in the model’s key order, and journals the model’s input unchanged', async () => {
    const seen: unknown[] = [];
    const mutating = defineTool({
      name: 'mutating',
      description: 'Changes its input.',
      inputSchema: {
        type: 'object',
        properties: { b: { type: 'array', items: { type: 'number' } }, a: { type: 'number' } },
        required: ['b', 'a'],
        additionalProperties: false,
      },
      right: everySession,
      run: (input) => {
        seen.push(Object.keys(input));
        input.b.push(99);
        return 'ok';
      },
    });
    const session = createSession({ id: 's', humanId: 'h', rights: [] });
    const journal = new InMemoryJournal();
    const original = { b: [1], a: 2 };
    await executeCall(call('c1', 'mutating', original), { catalogue: createCatalogue([mutating]), session, journal });
    expect(seen).toEqual([['b', 'a']]);
    expect(original).toEqual({ b: [1], a: 2 });
    expect(journal.entries[0]?.input).toEqual({ a: 2, b: [1] });
  });
});

describe('what the tool and the caller are handed', () => {
  it('keeps the lazy signal and input digest through a spread (they are own enumerable getters)', async () => {
    let spreadSignal: unknown;
    const passing = defineTool({
      name: 'passing',
      description: 'Hands its context on, spread.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      right: everySession,
      run: (_input, context) => {
        spreadSignal = { ...context }.signal;
        return 'ok';
      },
    });
    const session = createSession({ id: 's', humanId: 'h', rights: [] });
    const outcome = await executeCall(call('c1', 'passing', {}), { catalogue: createCatalogue([passing]), session });
    expect(spreadSignal).toBeInstanceOf(AbortSignal);
    expect({ ...outcome }.inputDigest).toBe(argumentDigest({}));
    expect(Object.keys(outcome)).toEqual(expect.arrayContaining(['result', 'verdict', 'durationMs', 'inputDigest']));
  });
});

describe('a tool that reads its signal late', () => {
  it('finds it aborted when it first reads it after its timeout', async () => {
    let readLate: (aborted: boolean) => void = () => {};
    const lateRead = new Promise<boolean>((resolve) => {
      readLate = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Reads its signal only after a while.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      right: everySession,
      timeoutMs: 5,
      run: async (_input, context) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        readLate(context.signal.aborted);
        return 'too late';
      },
    });
    const session = createSession({ id: 's', humanId: 'h', rights: [] });
    const outcome = await executeCall(call('c1', 'slow', {}), { catalogue: createCatalogue([slow]), session });
    expect(outcome.verdict).toEqual({ kind: 'timed_out', timeoutMs: 5 });
    expect(await lateRead).toBe(true);
  });
});
