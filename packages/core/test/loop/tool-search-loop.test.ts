import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  continueLoop,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  executeCall,
  InMemoryJournal,
  type InterruptedRun,
  InvalidToolDefinitionError,
  interruptedRunOfError,
  type Message,
  type ModelRequest,
  type PausedRun,
  ProviderError,
  resumeLoop,
  runLoop,
  type ToolMessage,
  toolResultText,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'What will the weather be in Lyon, and pay Bob 10.' }];
const session = createSession({ id: 's1', humanId: 'alice', rights: ['pay'] });

/** 40 deferred tools about unrelated things, two that matter, one tool always shown. */
function world(options: { readonly irreversiblePay?: boolean } = {}) {
  const runs: string[] = [];
  const filler = Array.from({ length: 40 }, (_, index) =>
    defineTool({
      name: `inventory_item_${index}`,
      description: `Reads stock level number ${index} of the warehouse inventory.`,
      inputSchema: { type: 'object', properties: { sku: { type: 'string' } } },
      right: everySession,
      run: () => 'ok',
    }),
  );
  const weather = defineTool({
    name: 'get_weather_forecast',
    description: 'Weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    right: everySession,
    run: ({ city }) => {
      runs.push(`weather:${city}`);
      return `Sunny in ${city}`;
    },
  });
  const pay = defineTool({
    name: 'pay_person',
    description: 'Pays an amount of money to a person.',
    inputSchema: { type: 'object', properties: { to: { type: 'string' }, amount: { type: 'number' } } },
    right: 'pay',
    irreversible: options.irreversiblePay ?? false,
    run: ({ to }) => {
      runs.push(`pay:${to}`);
      return 'paid';
    },
  });
  const clock = defineTool({
    name: 'current_time',
    description: 'The current time.',
    inputSchema: { type: 'object', properties: {} },
    right: everySession,
    defer: false,
    run: () => '12:00',
  });
  const catalogue = createCatalogue([...filler, weather, pay, clock], { defer: true });
  return { runs, catalogue, journal: new InMemoryJournal() };
}

const names = (request: ModelRequest | undefined) => request?.tools.map((tool) => tool.name) ?? [];

describe('deferred tools and the neutral tool search', () => {
  it('the catalogue shows only the tools not deferred and the search tool', () => {
    const { catalogue } = world();
    expect(catalogue.declarations.map((tool) => tool.name)).toEqual(['current_time', 'tool_search']);
    expect(catalogue.names).toHaveLength(43);
    expect(catalogue.toolSearch?.deferred).toHaveLength(42);
    expect(catalogue.toolSearch?.isDeferred('current_time')).toBe(false);
  });

  it('a search loads what it found for the next step only; a found tool runs; an unloaded one is refused with the hint, journaled', async () => {
    const { runs, catalogue, journal } = world();
    const model = scripted([
      // Calling a deferred tool before any search: refused.
      callsTurn([
        call('early', 'pay_person', { to: 'bob', amount: 10 }),
        call('s1', 'tool_search', { query: 'weather forecast city' }),
      ]),
      callsTurn([
        call('w', 'get_weather_forecast', { city: 'Lyon' }),
        call('p', 'pay_person', { to: 'bob', amount: 10 }),
      ]),
      textTurn('Sunny; I could not pay yet.'),
    ]);
    const result = await runLoop({ model, catalogue, session, journal, messages: user });
    expect(result.status).toBe('completed');
    expect(names(model.requests[0])).toEqual(['current_time', 'tool_search']);
    expect(model.requests[0]?.deferredTools?.tools).toHaveLength(42);
    // The search found the weather tool (first) and loaded it, at the end of the list.
    expect(names(model.requests[1]).slice(0, 3)).toEqual(['current_time', 'tool_search', 'get_weather_forecast']);
    expect(names(model.requests[1])).not.toContain('pay_person');
    expect(model.requests[1]?.deferredTools?.tools.map((tool) => tool.name)).not.toContain('get_weather_forecast');
    expect(runs).toEqual(['weather:Lyon']);

    const replies = result.messages.filter((message): message is ToolMessage => message.role === 'tool');
    const [early, search] = replies[0]?.content ?? [];
    expect(early?.isError).toBe(true);
    expect(toolResultText(early?.content ?? '')).toMatch(/not loaded yet.*the tool search \("tool_search"/s);
    expect(search?.isError).toBe(false);
    expect(toolResultText(search?.content ?? '')).toContain('get_weather_forecast');
    const [, refusedLater] = replies[1]?.content ?? [];
    expect(refusedLater?.isError).toBe(true);
    const verdicts = journal.entries.map((entry) => [entry.callId, entry.verdict, entry.reason ?? null]);
    expect(verdicts).toEqual([
      ['early', 'refused', 'tool_not_loaded'],
      ['s1', 'executed', null],
      ['w', 'executed', null],
      ['p', 'refused', 'tool_not_loaded'],
    ]);
  });

  it('loaded tools still go through the four checks (a loaded tool without the right is refused as such)', async () => {
    const { runs, catalogue } = world();
    const model = scripted([
      callsTurn([call('s', 'tool_search', { query: 'pay money person', limit: 1 })]),
      callsTurn([call('p', 'pay_person', { to: 'bob', amount: 'ten' })]),
      callsTurn([call('p2', 'pay_person', { to: 'bob', amount: 10 })]),
      textTurn('done'),
    ]);
    const noRight = createSession({ id: 's2', humanId: 'bob', rights: [] });
    const journal = new InMemoryJournal();
    await runLoop({ model, catalogue, session: noRight, journal, messages: user });
    expect(names(model.requests[1])).toContain('pay_person');
    expect(journal.entries.map((entry) => entry.reason ?? entry.verdict)).toEqual([
      'executed',
      'invalid_input',
      'missing_right',
    ]);
    expect(runs).toEqual([]);
  });

  it('a paused run carries its loaded tools as plain data, and the resumed run shows and allows them', async () => {
    const { runs, catalogue, journal } = world({ irreversiblePay: true });
    const first = scripted([
      callsTurn([call('s', 'tool_search', { query: 'pay money to a person', limit: 2 })]),
      callsTurn([call('p', 'pay_person', { to: 'bob', amount: 10 })]),
    ]);
    const result = await runLoop({ model: first, catalogue, session, journal, messages: user, confirmation: 'pause' });
    expect(result.status).toBe('paused');
    const stored = JSON.parse(canonicalJson(result.paused as never)) as PausedRun;
    expect(stored.loadedTools?.[0]).toBe('pay_person');
    const second = scripted([callsTurn([call('p3', 'pay_person', { to: 'eve', amount: 1 })]), textTurn('ok')]);
    const resumed = await resumeLoop(
      stored,
      stored.pending.map((pending) => ({ callId: pending.callId, approved: true, inputDigest: pending.inputDigest })),
      { model: second, catalogue, session, journal, confirmation: 'refuse' },
    );
    expect(resumed.status).toBe('completed');
    expect(runs).toEqual(['pay:bob']);
    expect(names(second.requests[0])).toContain('pay_person');
    // Loaded, so the new call reached check 4 (confirmation), not the "not loaded" refusal.
    expect(journal.entries.at(-1)?.reason).toBe('confirmation_required');
  });

  it('an interrupted run carries its loaded tools; continueLoop shows them again', async () => {
    const { catalogue, journal } = world();
    const failing = scripted([
      callsTurn([call('s', 'tool_search', { query: 'weather forecast' })]),
      () => {
        throw new ProviderError({ code: 'server_error', message: 'boom', retryable: true, provider: 'test' });
      },
    ]);
    let interrupted: InterruptedRun | undefined;
    try {
      await runLoop({ model: failing, catalogue, session, journal, messages: user });
    } catch (error) {
      interrupted = interruptedRunOfError(error);
    }
    expect(interrupted?.loadedTools).toContain('get_weather_forecast');
    const next = scripted([textTurn('ok')]);
    await continueLoop(JSON.parse(JSON.stringify(interrupted)) as InterruptedRun, { model: next, catalogue, session });
    expect(names(next.requests[0])).toContain('get_weather_forecast');
  });

  it('an interrupted planned run carries its loaded tools and the failed step plan; continueLoop plans over them', async () => {
    const { catalogue, journal } = world();
    // Step 1 unrestricted; then only the search and the forecast (pay_person left out).
    const prepareStep = ({ turn }: { turn: number }) =>
      turn === 1 ? undefined : { activeTools: ['tool_search', 'get_weather_forecast'] };
    const failing = scripted([
      callsTurn([call('s', 'tool_search', { query: 'weather forecast' })]),
      () => {
        throw new ProviderError({ code: 'server_error', message: 'boom', retryable: true, provider: 'test' });
      },
    ]);
    let interrupted: InterruptedRun | undefined;
    try {
      await runLoop({ model: failing, catalogue, session, journal, messages: user, prepareStep });
    } catch (error) {
      interrupted = interruptedRunOfError(error);
    }
    expect(interrupted?.loadedTools).toContain('get_weather_forecast');
    expect(interrupted?.step).toMatchObject({ turn: 2, activeTools: ['get_weather_forecast', 'tool_search'] });
    expect(names(failing.requests[1])).toEqual(['tool_search', 'get_weather_forecast']);
    const next = scripted([
      callsTurn([call('w', 'get_weather_forecast', { city: 'Lyon' }), call('p', 'pay_person', { to: 'bob' })]),
      textTurn('ok'),
    ]);
    const result = await continueLoop(JSON.parse(JSON.stringify(interrupted)) as InterruptedRun, {
      model: next,
      catalogue,
      session,
      journal,
      prepareStep,
    });
    expect(names(next.requests[0])).toEqual(['tool_search', 'get_weather_forecast']);
    expect(result.status).toBe('completed');
    // The forecast, loaded and allowed, ran; pay_person is allowed by no plan: inactive, not "search for it".
    expect(journal.entries.slice(-2).map((entry) => [entry.toolName, entry.reason ?? entry.verdict])).toEqual([
      ['get_weather_forecast', 'executed'],
      ['pay_person', 'inactive_tool'],
    ]);
  });

  it('a deferred tool not loaded is tool_not_loaded only while the plan offers both it and the search', async () => {
    const { catalogue } = world();
    const loadedTools = new Set<string>();
    const reason = async (activeTools?: ReadonlySet<string>) => {
      const context = { catalogue, session, loadedTools, ...(activeTools === undefined ? {} : { activeTools }) };
      const outcome = await executeCall(call('p', 'pay_person', { to: 'bob' }), context);
      return outcome.verdict.kind === 'refused' ? outcome.verdict.reason : outcome.verdict.kind;
    };
    expect(await reason()).toBe('tool_not_loaded');
    expect(await reason(new Set(['pay_person', 'tool_search']))).toBe('tool_not_loaded');
    // Searching cannot help: the plan leaves out the search, or the tool itself.
    expect(await reason(new Set(['pay_person']))).toBe('inactive_tool');
    expect(await reason(new Set(['tool_search', 'current_time']))).toBe('inactive_tool');
    loadedTools.add('pay_person');
    expect(await reason(new Set(['pay_person']))).toBe('executed');
    expect(await reason(new Set(['tool_search']))).toBe('inactive_tool');
  });

  it('a conversation continued with runLoop keeps what its earlier searches loaded', async () => {
    const { catalogue } = world();
    const first = scripted([callsTurn([call('s', 'tool_search', { query: 'weather forecast' })]), textTurn('found')]);
    const done = await runLoop({ model: first, catalogue, session, messages: user });
    const again = scripted([textTurn('ok')]);
    await runLoop({
      model: again,
      catalogue,
      session,
      messages: [...done.messages, { role: 'user', content: 'again' }],
    });
    expect(names(again.requests[0])).toContain('get_weather_forecast');
  });

  it('refuses a tool named like the search tool and a non-boolean defer, naming the fix', () => {
    const clash = defineTool({
      name: 'tool_search',
      description: 'Mine.',
      inputSchema: { type: 'object' },
      right: everySession,
      defer: false,
      run: () => '',
    });
    const deferred = { ...clash, name: 'other', defer: true };
    expect(() => createCatalogue([clash, deferred])).toThrow(/toolSearch\.name/);
    expect(createCatalogue([clash, deferred], { toolSearch: { name: 'find_tools' } }).toolSearch?.name).toBe(
      'find_tools',
    );
    expect(() => createCatalogue([{ ...clash, name: 'x', defer: 'yes' as never }])).toThrow(InvalidToolDefinitionError);
  });
});
