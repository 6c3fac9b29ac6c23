import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  defineTextTool,
  defineTool,
  InMemoryConfirmations,
  InMemoryJournal,
  InvalidToolDefinitionError,
  runLoop,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const session = createSession({ id: 's', humanId: 'alice', rights: ['sql:run', 'patch:apply'] });

describe('text tools (defineTextTool)', () => {
  it('declares a string input with its grammar, and no JSON Schema of its own', () => {
    const catalogue = createCatalogue([
      defineTextTool({
        name: 'run_sql',
        description: 'Run one read-only SQL query.',
        grammar: { syntax: 'regex', definition: 'SELECT [a-z_, *]+ FROM [a-z_]+;' },
        right: 'sql:run',
        run: (query) => `ran ${query}`,
      }),
    ]);
    expect(catalogue.declarations[0]).toEqual({
      name: 'run_sql',
      description: 'Run one read-only SQL query.',
      inputSchema: { type: 'string' },
      textInput: { grammar: { syntax: 'regex', definition: 'SELECT [a-z_, *]+ FROM [a-z_]+;' } },
    });
  });

  it('runs through the four checks: grammar, then the tool validate, then the right, then confirmation', async () => {
    const ran: string[] = [];
    const sql = defineTextTool({
      name: 'run_sql',
      description: 'Run one SQL query.',
      grammar: { syntax: 'regex', definition: '(SELECT|DELETE) [a-z_, *]+ FROM [a-z_]+;' },
      validate: (text) => (text.includes('secret') ? 'the table "secret" is off limits' : undefined),
      right: 'sql:run',
      irreversible: true,
      run: (query) => {
        ran.push(query);
        return 'ok';
      },
    });
    const journal = new InMemoryJournal();
    const confirmations = new InMemoryConfirmations();
    const result = await runLoop({
      model: scripted([
        callsTurn([
          call('c1', 'run_sql', 'DROP TABLE users;'),
          call('c2', 'run_sql', 'SELECT * FROM secret;'),
          call('c3', 'run_sql', { query: 'SELECT * FROM a;' }),
          call('c4', 'run_sql', 'SELECT * FROM users;'),
        ]),
        textTurn('done'),
      ]),
      catalogue: createCatalogue([sql]),
      session: createSession({ id: 's', humanId: 'alice', rights: ['sql:run'], confirmations }),
      messages: [{ role: 'user', content: 'go' }],
      journal,
    });
    expect(result.status).toBe('completed');
    expect(journal.entries.map((entry) => [entry.callId, entry.verdict, entry.reason])).toEqual([
      ['c1', 'refused', 'invalid_input'],
      ['c2', 'refused', 'invalid_input'],
      ['c3', 'refused', 'invalid_input'],
      ['c4', 'refused', 'confirmation_required'],
    ]);
    expect(ran).toEqual([]);
    const reply = result.messages[2];
    if (reply?.role !== 'tool') throw new Error('expected the reply');
    expect(reply.content[0]?.content).toContain('does not match its grammar');
    expect(reply.content[1]?.content).toContain('the table "secret" is off limits');
    expect(reply.content[2]?.content).toContain('takes plain text as its input, not object');
    // The journal keeps the text itself as the input, with its digest.
    expect(journal.entries[3]?.input).toBe('SELECT * FROM users;');
    expect(journal.entries[3]?.inputDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hands the text to run once it passed, and refuses it without the right', async () => {
    const ran: string[] = [];
    const patch = defineTextTool({
      name: 'patch',
      description: 'Apply a patch.',
      right: 'patch:apply',
      run: (text) => {
        ran.push(text);
        return 'applied';
      },
    });
    const result = await runLoop({
      model: scripted([callsTurn([call('c1', 'patch', '*** Begin Patch\n*** End Patch')]), textTurn('done')]),
      catalogue: createCatalogue([patch]),
      session,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['*** Begin Patch\n*** End Patch']);
    const denied = await runLoop({
      model: scripted([callsTurn([call('c1', 'patch', 'x')]), textTurn('done')]),
      catalogue: createCatalogue([patch]),
      session: createSession({ id: 's2', humanId: 'bob', rights: [] }),
      messages: [{ role: 'user', content: 'go' }],
    });
    const reply = denied.messages[2];
    expect(reply?.role === 'tool' && reply.content[0]?.isError).toBe(true);
    expect(ran).toHaveLength(1);
  });

  it('refuses at registration a regex JavaScript cannot check when no validate stands in, and a bad grammar', () => {
    const tool = (grammar: unknown, validate?: (text: string) => string | undefined) =>
      defineTextTool({
        name: 't',
        description: 'A tool.',
        grammar: grammar as never,
        ...(validate === undefined ? {} : { validate }),
        right: 'x',
        run: () => 'ok',
      });
    expect(() => createCatalogue([tool({ syntax: 'regex', definition: '(?P<x>a' })])).toThrow(
      InvalidToolDefinitionError,
    );
    expect(() => createCatalogue([tool({ syntax: 'regex', definition: '(?P<x>a' }, () => undefined)])).not.toThrow();
    expect(() => createCatalogue([tool({ syntax: 'ebnf', definition: 'x' })])).toThrow(/must be \{ syntax/);
    expect(() => createCatalogue([tool({ syntax: 'lark', definition: 'start: "a"' })])).not.toThrow();
  });
});

describe('built-in tool types (builtin)', () => {
  const shell = (builtin: unknown) =>
    defineTool({
      name: 'shell',
      description: 'Run shell commands.',
      inputSchema: { type: 'object' },
      right: 'x',
      builtin: builtin as never,
      run: () => 'ok',
    });

  it('carries the kind (and a computer tool its display) on the declaration', () => {
    const catalogue = createCatalogue([shell({ kind: 'shell' })]);
    expect(catalogue.declarations[0]?.builtin).toEqual({ kind: 'shell' });
    const computer = createCatalogue([shell({ kind: 'computer', display: { width: 1024, height: 768 } })]);
    expect(computer.declarations[0]?.builtin).toEqual({ kind: 'computer', display: { width: 1024, height: 768 } });
  });

  it('refuses an unknown kind, a computer without its display, and a text tool that claims a type', () => {
    expect(() => createCatalogue([shell({ kind: 'teleport' })])).toThrow(/builtin.kind/);
    expect(() => createCatalogue([shell({ kind: 'computer' })])).toThrow(/needs `builtin.display/);
    expect(() => createCatalogue([shell({ kind: 'computer', display: { width: 0, height: 5 } })])).toThrow(
      /whole numbers of pixels/,
    );
    const text = {
      ...defineTextTool({ name: 't', description: 'd', right: 'x', run: () => 'ok' }),
      builtin: { kind: 'shell' },
    };
    expect(() => createCatalogue([text as never])).toThrow(/cannot also be a `builtin`/);
  });
});
