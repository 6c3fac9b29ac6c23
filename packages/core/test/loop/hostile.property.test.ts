// The hostile property test: random hostile model turns (see random-turns.ts), hostile tools (odd throws,
// throwing getters and thenables, BigInt, cycles, revoked proxies, hangs) and model streams cut at every
// event boundary, through runLoop and streamLoop; then, as an application would, interrupted runs are
// continued (continueLoop) and paused runs resumed (resumeLoop) from their stored states, sealed or not,
// with random decisions, and every stored paused state is replayed once. The session holds a stale
// confirmation of every payment. It counts what must never happen. `pnpm test` runs a small sample;
// `pnpm fuzz` runs it for TOOLCIRCUIT_FUZZ_TURNS turns (100,000) and prints the figures (RELIABILITY.md
// holds the latest).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Confirmation,
  type ConfirmationDecision,
  type ConfirmationStore,
  canonicalJson,
  continueLoop,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type InterruptedRun,
  interruptedRunOfError,
  type LoopOptions,
  type LoopResult,
  type Message,
  type Model,
  type ModelTurn,
  type PausedRun,
  PausedRunResumedError,
  ProviderError,
  resumeLoop,
  runLoop,
  type StreamEvent,
  streamLoop,
  type ToolContext,
  toolCallsOf,
  turnStreamEvents,
} from '../../src/index.js';
import { chercherDossier, echoTool } from '../fixtures.js';
import { modelTurn } from '../random-turns.js';
import { textTurn } from '../support.js';

const TARGET_TURNS = Number(process.env['TOOLCIRCUIT_FUZZ_TURNS'] ?? 400);
const SEED = Number(process.env['TOOLCIRCUIT_FUZZ_SEED'] ?? 20261201);

/**
 * Executions that must never happen: a tool the session has no right to; a payment the human did not approve
 * through a resume (each approval used once) and that only the stale confirmation could have let through
 * once untrusted output was in the run (every tool here is untrusted: any result from a tool in an earlier
 * turn of the run makes a payment need a fresh, informed confirmation).
 */
let forbiddenExecutions = 0;
/** `runId callId` of each payment the fuzz's human approved; an execution uses its approval up. */
const approvedPayments = new Set<string>();
/** The journal of the run being played, where a payment looks for untrusted output of earlier turns. */
let currentJournal = new InMemoryJournal();

function paymentAllowed(context: ToolContext): boolean {
  if (approvedPayments.delete(`${context.runId} ${context.callId}`)) return true;
  const tainted = currentJournal.entries.some(
    (entry) =>
      entry.runId === context.runId &&
      entry.turn < context.turn &&
      (entry.verdict === 'executed' || entry.verdict === 'failed'),
  );
  return !tainted;
}

/**
 * The session's confirmation store: a confirmation of every payment, given before any run read anything (the
 * worst stale approval), and resume tokens recorded like `InMemoryConfirmations` does.
 */
class StaleApprovals implements ConfirmationStore {
  readonly #spent = new Set<string>();
  grant(): void {}
  consume(confirmation: Confirmation): boolean {
    return confirmation.toolName === 'virement' && confirmation.informedOf === undefined;
  }
  spendResumeToken(token: string): boolean {
    if (this.#spent.has(token)) return false;
    this.#spent.add(token);
    return true;
  }
}

const session = createSession({
  id: 'prop',
  humanId: 'fuzzer',
  rights: ['dossiers:lire', 'payments:write'],
  confirmations: new StaleApprovals(),
});
const SEAL = { key: { id: 'fuzz', secret: 'hostile-property-test-sealing-key' } };

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
    description: 'Irreversible: runs on the human approval of a resume, or a stale one before any untrusted output.',
    inputSchema: { type: 'object' },
    right: 'payments:write',
    irreversible: true,
    run: (_input, context) => {
      if (!paymentAllowed(context)) forbiddenExecutions += 1;
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
  continuedRuns: number;
  resumedRuns: number;
  refusedReplays: number;
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
  /** Turns the model plays after a continuation or a resume. */
  later: fc.array(modelTurn, { minLength: 0, maxLength: 2 }),
  sealed: fc.boolean(),
  /** Per pending call, in order: approved or not. */
  decisions: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
});

async function fuzz(targetTurns: number): Promise<Figures> {
  const figures: Figures = {
    runs: 0,
    turns: 0,
    calls: 0,
    interruptedRuns: 0,
    continuedRuns: 0,
    resumedRuns: 0,
    refusedReplays: 0,
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
  let batch: Scenario[] = [];
  let batches = 0;
  try {
    while (figures.turns < targetTurns) {
      if (batch.length === 0) batch = fc.sample(scenario, { seed: SEED + batches++, numRuns: 50 });
      const value = batch.pop();
      if (value === undefined) break;
      const script = [...value.turns, textTurn('done')];
      const journal = new InMemoryJournal();
      currentJournal = journal;
      const base = {
        catalogue,
        session,
        journal,
        confirmation: value.confirmation,
        concurrency: value.concurrency,
        maxTurns: 6,
        ...(value.sealed ? { seal: SEAL } : {}),
      };
      const messages = [{ role: 'user' as const, content: 'go' }];
      figures.runs += 1;
      let played: Played;
      try {
        if (value.streamed) {
          const stream = streamLoop({ ...base, messages, model: streamingModel(script, value.cut ?? undefined) });
          for await (const _event of stream) {
            // read every event, as an application would
          }
          played = { result: await stream.result };
        } else {
          played = { result: await runLoop({ ...base, messages, model: generatingModel(script) }) };
        }
      } catch (error) {
        played = interruption(error, figures);
      }
      await carryOn(played, value, base, journal, figures);
    }
  } finally {
    process.off('unhandledRejection', unhandled);
  }
  figures.forbiddenExecutions = forbiddenExecutions;
  return figures;
}

/**
 * The state as an application stores it and reads it back (`canonicalJson`, `JSON.parse`). A state that
 * cannot be stored breaks the promise that it is plain JSON data: counted with the escapes.
 */
function storedCopy<T>(state: T, figures: Figures): T | undefined {
  try {
    return JSON.parse(canonicalJson(state)) as T;
  } catch {
    figures.escapedRejections += 1;
    return undefined;
  }
}

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
type Played = { readonly result: LoopResult } | { readonly interrupted: InterruptedRun } | undefined;

/** The interrupted state a model failure left, or `undefined` (counted) for anything that must not escape. */
function interruption(error: unknown, figures: Figures): Played {
  const interrupted = interruptedRunOfError(error);
  if (!(error instanceof ProviderError) || interrupted === undefined) {
    figures.escapedRejections += 1;
    return undefined;
  }
  figures.interruptedRuns += 1;
  return { interrupted };
}

/**
 * Checks what a run left, then goes on from it as an application would, a few times at most: an
 * interrupted run is continued, a paused run resumed with random decisions (its stored state then replayed
 * once, which must be refused), each from its state stored and read back.
 */
async function carryOn(
  first: Played,
  value: Scenario,
  base: Omit<LoopOptions, 'messages' | 'model'>,
  journal: InMemoryJournal,
  figures: Figures,
): Promise<void> {
  let played = first;
  // Each leg's state holds the turns of the legs before it: only the new ones are counted.
  let counted = 0;
  const count = (turns: number) => {
    figures.turns += Math.max(0, turns - counted);
    counted = Math.max(counted, turns);
  };
  for (let leg = 0; leg < 3 && played !== undefined; leg += 1) {
    const model = generatingModel([...value.later, textTurn('done')]);
    if ('interrupted' in played) {
      count(played.interrupted.turns.length + 1);
      check(played.interrupted.messages, journal, figures, false);
      if (leg === 2) return;
      const stored = storedCopy(played.interrupted, figures);
      if (stored === undefined) return;
      figures.continuedRuns += 1;
      try {
        played = { result: await continueLoop(stored, { ...base, model }) };
      } catch (error) {
        played = interruption(error, figures);
      }
      continue;
    }
    const { result } = played;
    count(result.turns.length);
    check(result.messages, journal, figures, result.status === 'paused');
    if (result.paused === undefined || leg === 2) return;
    const paused = storedCopy(result.paused, figures);
    if (paused === undefined) return;
    const decisions: ConfirmationDecision[] = paused.pending.map((pending, index) => {
      const approved = value.decisions[index % value.decisions.length] === true;
      if (approved) approvedPayments.add(`${paused.runId} ${pending.callId}`);
      return { callId: pending.callId, approved, inputDigest: pending.inputDigest };
    });
    figures.resumedRuns += 1;
    try {
      played = { result: await resumeLoop(paused, decisions, { ...base, model }) };
    } catch (error) {
      played = interruption(error, figures);
    }
    // The same stored state again: refused before anything runs (a payment it ran would be unapproved).
    const replay = storedCopy(result.paused, figures) as PausedRun;
    try {
      await resumeLoop(replay, decisions, { ...base, model: generatingModel([textTurn('again')]) });
      figures.escapedRejections += 1;
    } catch (error) {
      if (error instanceof PausedRunResumedError) figures.refusedReplays += 1;
      else figures.escapedRejections += 1;
    }
  }
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
            `  continued: ${figures.continuedRuns}, resumed: ${figures.resumedRuns}, replays refused: ${figures.refusedReplays}`,
            `  escaped rejections: ${figures.escapedRejections}`,
            `  unpaired results: ${figures.unpairedResults}`,
            `  unjournaled calls: ${figures.unjournaledCalls}`,
            `  executions without right or matching approval: ${figures.forbiddenExecutions}`,
          ].join('\n'),
        );
      }
      expect(figures.turns).toBeGreaterThanOrEqual(TARGET_TURNS);
      expect(figures.interruptedRuns).toBeGreaterThan(0);
      expect(figures.continuedRuns).toBeGreaterThan(0);
      expect(figures.resumedRuns).toBeGreaterThan(0);
      expect(figures.refusedReplays).toBe(figures.resumedRuns);
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
