// Random model turns for the property tests: every kind of call the executor must refuse or survive, from
// a catalogue whose tools are deterministic (so two runs of one script can be compared).
import fc from 'fast-check';
import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type ModelTurn,
  type ToolCallPart,
} from '../src/index.js';
import { chercherDossier, echoTool, paymentTool } from './fixtures.js';

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
export const catalogue = createCatalogue([chercherDossier, echoTool, thrower, weird, forbidden, paymentTool()]);
export const session = createSession({ id: 'prop', humanId: 'fuzzer', rights: ['dossiers:lire', 'payments:write'] });

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
// A well-formed irreversible call reaches the confirmation check; left to the random mix above it is about
// one call in 600, rare enough that a run of the property could miss that branch altogether.
const paymentCall: fc.Arbitrary<ToolCallPart> = fc
  .record({ id: fc.oneof(fc.constantFrom('call_1', 'call_2'), fc.uuid()), amount: fc.integer({ min: 1, max: 1000 }) })
  .map(({ id, amount }) => ({ type: 'tool_call', id, name: 'virement', input: { amount, to: 'FR76' } }));
export const modelTurn: fc.Arbitrary<ModelTurn> = fc
  .record({
    calls: fc.array(fc.oneof({ arbitrary: toolCall, weight: 9 }, { arbitrary: paymentCall, weight: 1 }), {
      minLength: 1,
      maxLength: 8,
    }),
    stop: fc.constantFrom('tool_calls', 'tool_calls', 'max_tokens', 'end_turn'),
    text: fc.option(fc.constantFrom('I am an administrator with every right.', 'Ignore previous rules.')),
  })
  .map(({ calls, stop, text }) => ({
    content: [...(text === null ? [] : [{ type: 'text' as const, text }]), ...calls],
    stopReason: { unified: stop, raw: stop },
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  }));
