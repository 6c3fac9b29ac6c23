import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type LoopResult,
  type Message,
  type Model,
  resumeLoop,
  runLoop,
  streamLoop,
  type ToolCallPart,
  type ToolMessage,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

/** What a tool can do to the loop that calls it, besides returning data. */
const HOSTILE: Readonly<Record<string, () => unknown>> = {
  throwsNullPrototype: () => {
    throw Object.create(null);
  },
  throwsUnprintable: () => {
    throw {
      toString() {
        throw new Error('no');
      },
    };
  },
  throwsRevokedProxy: () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    throw proxy;
  },
  throwsErrorWithThrowingMessage: () => {
    const error = new Error('x');
    Object.defineProperty(error, 'message', {
      get() {
        throw new Error('no');
      },
    });
    throw error;
  },
  returnsThrowingGetter: () => ({
    get value() {
      throw new Error('getter');
    },
  }),
  returnsThrowingThen: () => ({
    // biome-ignore lint/suspicious/noThenProperty: the hostile value under test is exactly this
    get then() {
      throw new Error('then');
    },
  }),
  returnsThenableThatThrows: () => ({
    // biome-ignore lint/suspicious/noThenProperty: the hostile value under test is exactly this
    then() {
      throw new Error('then called');
    },
  }),
  returnsBigInt: () => 10n,
  returnsCycle: () => {
    const value: Record<string, unknown> = { a: 1 };
    value['self'] = value;
    return value;
  },
  returnsRevokedProxy: () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  returnsSymbol: () => Symbol('s'),
  returnsFunction: () => () => 1,
  throwsSynchronously: () => {
    throw new TypeError('sync');
  },
};

const EMPTY = { type: 'object', properties: {} } as const;
const tools = [
  ...Object.entries(HOSTILE).map(([name, run]) =>
    defineTool({ name, description: `hostile: ${name}`, inputSchema: EMPTY, right: everySession, run: run as never }),
  ),
  // A hang is contained by a timeout (the tool's or the loop's `timeoutMs`); without one, only the signal ends it.
  defineTool({
    name: 'hangs',
    description: 'never answers',
    inputSchema: EMPTY,
    right: everySession,
    timeoutMs: 20,
    run: () => new Promise<string>(() => undefined),
  }),
  defineTool({ name: 'fine', description: 'behaves', inputSchema: EMPTY, right: everySession, run: () => 'fine' }),
];
const HOSTILE_NAMES = [...Object.keys(HOSTILE), 'hangs'];
const catalogue = createCatalogue(tools);
const session = createSession({ id: 's', humanId: 'h', rights: [] });
const user: Message[] = [{ role: 'user', content: 'go' }];

function hostileTurnCalls(): ToolCallPart[] {
  return [...HOSTILE_NAMES, 'fine'].map((name, index) => call(`c${index}`, name, {}));
}

function checkContained(result: LoopResult, journal: InMemoryJournal, calls: readonly ToolCallPart[]): void {
  expect(result.status).toBe('completed');
  const reply = result.messages.find((message): message is ToolMessage => message.role === 'tool');
  expect(reply?.content.map((part) => part.callId)).toEqual(calls.map((part) => part.id));
  const byName = new Map(reply?.content.map((part) => [part.name, part]));
  for (const name of HOSTILE_NAMES) {
    expect(byName.get(name)?.isError, name).toBe(true);
  }
  expect(byName.get('fine')?.isError).toBe(false);
  expect(journal.entries.map((entry) => entry.callId).sort()).toEqual(calls.map((part) => part.id).sort());
  // The reply can be sent: it is JSON.
  expect(() => JSON.stringify(result.messages)).not.toThrow();
}

function model(calls: readonly ToolCallPart[]): Model {
  return scripted([callsTurn(calls), textTurn('done')]);
}

describe('a tool cannot crash the loop', () => {
  it('runLoop: every hostile call gets an isError result and a journal entry; the others keep theirs', async () => {
    const calls = hostileTurnCalls();
    const journal = new InMemoryJournal();
    const result = await runLoop({ model: model(calls), catalogue, session, messages: user, journal });
    checkContained(result, journal, calls);
  });

  it('streamLoop: the same, as events', async () => {
    const calls = hostileTurnCalls();
    const journal = new InMemoryJournal();
    const stream = streamLoop({ model: model(calls), catalogue, session, messages: user, journal });
    for await (const _event of stream) {
      // drain
    }
    checkContained(await stream.result, journal, calls);
  });

  it('resumeLoop: hostile tools after a pause are contained too', async () => {
    const calls = hostileTurnCalls();
    const irreversible = defineTool({
      name: 'sign',
      description: 'irreversible',
      inputSchema: EMPTY,
      right: everySession,
      irreversible: true,
      run: () => 'signed',
    });
    const withSign = createCatalogue([...tools, irreversible]);
    const journal = new InMemoryJournal();
    const paused = await runLoop({
      model: scripted([callsTurn([call('p0', 'sign', {})]), callsTurn(calls), textTurn('done')]),
      catalogue: withSign,
      session,
      messages: user,
      journal,
      confirmation: 'pause',
    });
    expect(paused.status).toBe('paused');
    if (paused.paused === undefined) throw new Error('not paused');
    const result = await resumeLoop(paused.paused, [{ callId: 'p0', approved: true }], {
      model: scripted([callsTurn(calls), textTurn('done')]),
      catalogue: withSign,
      session,
      journal,
    });
    expect(result.status).toBe('completed');
    const replies = result.messages.filter((message): message is ToolMessage => message.role === 'tool');
    const last = replies.at(-1);
    expect(last?.content.map((part) => part.callId)).toEqual(calls.map((part) => part.id));
    for (const part of last?.content ?? []) expect(part.isError, part.name).toBe(part.name !== 'fine');
  });
});
