// The hostile property test: random hostile model turns (see random-turns.ts), hostile tools (odd throws,
// throwing getters and thenables, BigInt, cycles, revoked proxies, hangs) and model streams cut at every
// event boundary, through runLoop and streamLoop. It counts what must never happen. `pnpm test` runs a small
// sample; `pnpm fuzz` runs it for TOOLCIRCUIT_FUZZ_TURNS turns (100,000) and prints the figures
// (RELIABILITY.md holds the latest).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  defineTool,
  everySession,
  InMemoryJournal,
  interruptedRunOfError,
  type LoopResult,
  type Message,
  type Model,
  type ModelTurn,
  ProviderError,
  runLoop,
  type StreamEvent,
  streamLoop,
  toolCallsOf,
  turnStreamEvents,
} from '../../src/index.js';
import { chercherDossier, echoTool } from '../fixtures.js';
import { modelTurn, session } from '../random-turns.js';
import { textTurn } from '../support.js';

const TARGET_TURNS = Number(process.env['TOOLCIRCUIT_FUZZ_TURNS'] ?? 400);
const SEED = Number(process.env['TOOLCIRCUIT_FUZZ_SEED'] ?? 20261201);

/** Executions that must never happen: a tool the session has no right to, an irreversible call never approved. */
let forbiddenExecutions = 0;

const HOSTILE_VALUES: readonly (() => unknown)[] = [
  () => Object.create(null),
  () => ({
    toString() {
      throw new Error('no');
    },
  }),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  () => 10n,
  () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    return cycle;
  },
  () => ({
    get value() {
      throw new Error('getter');
    },
  }),
  () => ({
    // biome-ignore lint/suspicious/noThenProperty: the hostile value under test is exactly this
    get then() {
      throw new Error('then');
    },
  }),
  () => Symbol('s'),
];
let hostileCounter = 0;
const nextHostile = () => HOSTILE_VALUES[hostileCounter++ % HOSTILE_VALUES.length]?.();

const catalogue = createCatalogue([
  chercherDossier,
  echoTool,
  defineTool({
    name: 'explose',
    description: 'Throws odd values.',
    inputSchema: { type: 'object' },
    right: everySession,
    run: () => {
      throw nextHostile();
    },
  }),
  defineTool({
    name: 'bizarre',
    description: 'Returns odd values, or never answers.',
    inputSchema: { type: 'object', properties: { kind: { type: 'integer' } } },
    right: everySession,
    timeoutMs: 1,
    run: ({ kind }) => {
      if (kind === 7) return new Promise(() => undefined);
      return ((kind ?? 0) % 2 === 0 ? nextHostile() : Promise.resolve(nextHostile())) as never;
    },
  }),
  defineTool({
    name: 'admin_reset',
    description: 'Needs a right nobody here holds.',
    inputSchema: { type: 'object' },
    right: 'admin',
    run: () => {
      forbiddenExecutions += 1;
      return 'reset';
    },
  }),
  defineTool({
    name: 'virement',
    description: 'Irreversible; nobody approves anything here.',
    inputSchema: { type: 'object' },
    right: 'payments:write',
    irreversible: true,
    run: () => {
      forbiddenExecutions += 1;
      return 'sent';
    },
  }),
]);

/** Where a model stream is cut: turn (0-based), event index, and how (an error event, or silence). */
interface Cut {
  readonly turn: number;
  readonly event: number;
  readonly how: 'error' | 'silence';
}

function streamingModel(script: readonly ModelTurn[], cut: Cut | undefined): Model {
  let request = 0;
  return {
    provider: 'fuzz',
    modelId: 'hostile',
    generate: () => Promise.reject(new Error('streams only')),
    async *stream(): AsyncIterable<StreamEvent> {
      const index = request++;
      const turn = script[index];
      if (turn === undefined)
        throw new ProviderError({ provider: 'fuzz', code: 'unknown', message: 'script over', retryable: false });
      const events = [
        ...turnStreamEvents(turn, { fragmentLength: 7 }),
        { type: 'turn-end' as const, turn, incompleteToolCallIds: [] },
      ];
      for (const [position, event] of events.entries()) {
        if (cut !== undefined && cut.turn === index && cut.event === position) {
          if (cut.how === 'error') {
            yield {
              type: 'error',
              error: new ProviderError({ provider: 'fuzz', code: 'connection', message: 'cut', retryable: true }),
            };
          }
          return;
        }
        yield event;
      }
    },
  };
}

function generatingModel(script: readonly ModelTurn[]): Model {
  let request = 0;
  return {
    provider: 'fuzz',
    modelId: 'hostile',
    generate: async () => {
      const turn = script[request++];
      if (turn === undefined)
        throw new ProviderError({ provider: 'fuzz', code: 'unknown', message: 'over', retryable: false });
      return turn;
    },
  };
}

interface Figures {
  runs: number;
  turns: number;
  calls: number;
  interruptedRuns: number;
  escapedRejections: number;
  unpairedResults: number;
  unjournaledCalls: number;
  forbiddenExecutions: number;
}

/** Every call of every answered turn paired, in order, by the next message; every answered call journaled. */
function check(messages: readonly Message[], journal: InMemoryJournal, figures: Figures, paused: boolean): void {
  const journaled = new Set(journal.entries.map((entry) => entry.callId));
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return;
    const calls = toolCallsOf(message.content);
    if (calls.length === 0) return;
    figures.calls += calls.length;
    const reply = messages[index + 1];
    if (reply === undefined && paused) return;
    if (
      reply?.role !== 'tool' ||
      reply.content.map((part) => part.callId).join('\u0000') !== calls.map((call) => call.id).join('\u0000')
    ) {
      figures.unpairedResults += 1;
      return;
    }
    for (const call of calls) if (!journaled.has(call.id)) figures.unjournaledCalls += 1;
  });
}

const scenario = fc.record({
  turns: fc.array(modelTurn, { minLength: 1, maxLength: 4 }),
  streamed: fc.boolean(),
  cut: fc.option(
    fc.record({
      turn: fc.integer({ min: 0, max: 4 }),
      event: fc.integer({ min: 0, max: 40 }),
      how: fc.constantFrom('error' as const, 'silence' as const),
    }),
    { freq: 2 },
  ),
  confirmation: fc.constantFrom('refuse' as const, 'pause' as const),
  concurrency: fc.integer({ min: 1, max: 4 }),
});

async function fuzz(targetTurns: number): Promise<Figures> {
  const figures: Figures = {
    runs: 0,
    turns: 0,
    calls: 0,
    interruptedRuns: 0,
    escapedRejections: 0,
    unpairedResults: 0,
    unjournaledCalls: 0,
    forbiddenExecutions: 0,
  };
  const unhandled = (): void => {
    figures.escapedRejections += 1;
  };
  process.on('unhandledRejection', unhandled);
  forbiddenExecutions = 0;
  let batch: (typeof scenario extends fc.Arbitrary<infer T> ? T : never)[] = [];
  let batches = 0;
  try {
    while (figures.turns < targetTurns) {
      if (batch.length === 0) batch = fc.sample(scenario, { seed: SEED + batches++, numRuns: 50 });
      const value = batch.pop();
      if (value === undefined) break;
      const script = [...value.turns, textTurn('done')];
      const journal = new InMemoryJournal();
      const base = {
        catalogue,
        session,
        journal,
        messages: [{ role: 'user' as const, content: 'go' }],
        confirmation: value.confirmation,
        concurrency: value.concurrency,
        maxTurns: 6,
      };
      figures.runs += 1;
      let result: LoopResult | undefined;
      try {
        if (value.streamed) {
          const stream = streamLoop({ ...base, model: streamingModel(script, value.cut ?? undefined) });
          for await (const _event of stream) {
            // read every event, as an application would
          }
          result = await stream.result;
        } else {
          result = await runLoop({ ...base, model: generatingModel(script) });
        }
      } catch (error) {
        const interrupted = interruptedRunOfError(error);
        if (!(error instanceof ProviderError) || interrupted === undefined) {
          figures.escapedRejections += 1;
          continue;
        }
        figures.interruptedRuns += 1;
        figures.turns += interrupted.turns.length + 1;
        check(interrupted.messages, journal, figures, false);
        continue;
      }
      figures.turns += result.turns.length;
      check(result.messages, journal, figures, result.status === 'paused');
    }
  } finally {
    process.off('unhandledRejection', unhandled);
  }
  figures.forbiddenExecutions = forbiddenExecutions;
  return figures;
}

describe('the hostile property test (model, tools, streams cut at every event boundary)', () => {
  it(
    `${TARGET_TURNS} turns: no rejection escapes, every result paired, every call journaled, nothing forbidden runs`,
    async () => {
      const started = performance.now();
      const figures = await fuzz(TARGET_TURNS);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (process.env['TOOLCIRCUIT_FUZZ_TURNS'] !== undefined) {
        console.log(
          [
            `hostile property test, seed ${SEED}, ${seconds} s`,
            `  runs: ${figures.runs}, turns: ${figures.turns}, calls: ${figures.calls}, interrupted runs: ${figures.interruptedRuns}`,
            `  escaped rejections: ${figures.escapedRejections}`,
            `  unpaired results: ${figures.unpairedResults}`,
            `  unjournaled calls: ${figures.unjournaledCalls}`,
            `  executions without right or matching approval: ${figures.forbiddenExecutions}`,
          ].join('\n'),
        );
      }
      expect(figures.turns).toBeGreaterThanOrEqual(TARGET_TURNS);
      expect(figures.interruptedRuns).toBeGreaterThan(0);
      expect({
        escapedRejections: figures.escapedRejections,
        unpairedResults: figures.unpairedResults,
        unjournaledCalls: figures.unjournaledCalls,
        forbiddenExecutions: figures.forbiddenExecutions,
      }).toEqual({ escapedRejections: 0, unpairedResults: 0, unjournaledCalls: 0, forbiddenExecutions: 0 });
    },
    Math.max(60_000, TARGET_TURNS * 20),
  );
});
