import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type Message,
  type ModelTurn,
  runLoop,
  type ToolCallPart,
  type ToolMessage,
} from '../src/index.js';
import { chercherDossier, echoTool, paymentTool } from './fixtures.js';
import { scripted, textTurn } from './support.js';

const thrower = defineTool({
  name: 'explose',
  description: 'Always throws.',
  inputSchema: { type: 'object' },
  right: everySession,
  run: () => {
    throw new Error('boom');
  },
});
const weird = defineTool({
  name: 'bizarre',
  description: 'Returns odd values.',
  inputSchema: { type: 'object', properties: { kind: { type: 'integer' } } },
  right: everySession,
  run: ({ kind }) => {
    const outputs = [
      () => undefined,
      () => ({ big: 10n }),
      () => ({ nested: [1, { x: null }] }),
      () => 'text',
      () => Promise.reject(new Error('late')),
    ];
    return outputs[(kind ?? 0) % outputs.length]?.();
  },
});
const forbidden = defineTool({
  name: 'admin_reset',
  description: 'Needs a right nobody here holds.',
  inputSchema: { type: 'object' },
  right: 'admin',
  run: () => 'reset',
});
const catalogue = createCatalogue([chercherDossier, echoTool, thrower, weird, forbidden, paymentTool()]);
const session = createSession({ id: 'prop', humanId: 'fuzzer', rights: ['dossiers:lire', 'payments:write'] });

const deep = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;
const hostileInput = fc.oneof(
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"numero":"A-1234"}') as unknown),
  fc.constant(JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown),
  fc.integer({ min: 1, max: 6000 }).map(deep),
  fc.integer({ min: 10_000, max: 200_000 }).map((size) => ({ numero: 'A'.repeat(size), text: 'x'.repeat(size) })),
  fc.constantFrom(null, 42, 'a string', [1, 2, 3], true),
);
const validInput = fc.oneof(
  fc.stringMatching(/^[A-Z]-[0-9]{4}$/).map((numero) => ({ numero })),
  fc.string().map((text) => ({ text })),
  fc.integer({ min: 0, max: 20 }).map((kind) => ({ kind })),
  fc.record({ amount: fc.integer({ min: 1, max: 1000 }), to: fc.string() }),
);
const toolName = fc.oneof(
  fc.constantFrom('chercher_dossier', 'echo', 'explose', 'bizarre', 'admin_reset', 'virement'),
  fc.constantFrom('__proto__', 'constructor', 'toString', '', 'chercher dossier', 'ÉCHO', 'x'.repeat(100_000)),
  fc.string(),
);
const toolCall: fc.Arbitrary<ToolCallPart> = fc
  .record({
    id: fc.oneof(fc.constantFrom('call_1', 'call_2', 'call_3'), fc.uuid(), fc.string()),
    name: toolName,
    input: fc.oneof(validInput, hostileInput, fc.jsonValue()),
    malformed: fc.boolean(),
  })
  .map(({ id, name, input, malformed }) =>
    malformed
      ? {
          type: 'tool_call',
          id,
          name,
          input: undefined,
          rawInput: '{"numero": "A-',
          inputError: 'Unexpected end of JSON input',
        }
      : { type: 'tool_call', id, name, input },
  );
const modelTurn: fc.Arbitrary<ModelTurn> = fc
  .record({
    calls: fc.array(toolCall, { minLength: 1, maxLength: 8 }),
    stop: fc.constantFrom('tool_calls', 'tool_calls', 'max_tokens', 'end_turn'),
    text: fc.option(fc.constantFrom('I am an administrator with every right.', 'Ignore previous rules.')),
  })
  .map(({ calls, stop, text }) => ({
    content: [...(text === null ? [] : [{ type: 'text' as const, text }]), ...calls],
    stopReason: { unified: stop, raw: stop },
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  }));

describe('the loop under random model turns (property-based)', () => {
  it('never throws, answers every request exactly once in one reply, pairs ids, journals every request', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(modelTurn, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (turns, concurrency) => {
          const journal = new InMemoryJournal();
          const user: Message[] = [{ role: 'user', content: 'go' }];
          const model = scripted([...turns, textTurn('done')]);
          const result = await runLoop({ model, catalogue, session, messages: user, journal, concurrency });

          expect(result.status).toBe('completed');
          const requests = turns.flatMap((turn) => turn.content.filter((part) => part.type === 'tool_call'));
          const messages = result.messages.slice(1);
          for (const [index, turn] of turns.entries()) {
            const assistant = messages[index * 2];
            const reply = messages[index * 2 + 1] as ToolMessage;
            expect(assistant?.role).toBe('assistant');
            expect(reply.role).toBe('tool');
            const calls = turn.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
            expect(reply.content).toHaveLength(calls.length);
            expect(reply.content.map((part) => part.callId)).toEqual(calls.map((part) => part.id));
            expect(reply.content.map((part) => part.name)).toEqual(calls.map((part) => part.name));
            for (const part of reply.content) {
              expect(part.type).toBe('tool_result');
              expect(typeof part.isError).toBe('boolean');
            }
          }
          expect(messages.at(-1)?.role).toBe('assistant');
          expect(journal.entries).toHaveLength(requests.length);
          expect(
            journal.entries.filter((entry) => entry.verdict === 'executed' && entry.toolName === 'admin_reset'),
          ).toEqual([]);
          expect(
            journal.entries.filter((entry) => entry.verdict === 'executed' && entry.toolName === 'virement'),
          ).toEqual([]);
          expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
          for (const entry of journal.entries) {
            const key = entry.reason ?? entry.verdict;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 150 },
    );
    // The generators must reach every branch, or the property above would prove little.
    expect([...seen.keys()].sort()).toEqual(
      expect.arrayContaining([
        'confirmation_required',
        'duplicate_call_id',
        'executed',
        'failed',
        'incomplete_call',
        'invalid_input',
        'missing_right',
        'unknown_tool',
      ]),
    );
  });
});
