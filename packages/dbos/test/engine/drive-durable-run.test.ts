import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryConfirmations,
  type Model,
  type ModelRequest,
  type PausedRun,
  ProviderError,
  type SealOptions,
  StateSealError,
} from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  type DurableCircuit,
  type DurableRunInput,
  type DurableRunOutcome,
  driveDurableRun,
  resumeSegmentId,
} from '../../src/index.js';
import { type Death, memoryEngine, type StepLog, settle } from './memory-engine.js';

const SESSION = { id: 's1', humanId: 'alice', rights: ['pay'] };

/** A circuit whose tools count their executions. */
function circuit(
  options: {
    rerun?: boolean;
    failModel?: boolean;
    seal?: SealOptions;
    /** The note's output is untrusted (it relays what others wrote): the charge after it is gated. */
    untrustedNote?: boolean;
    /** One confirmation store for every segment's session (a database-backed one, in a real application). */
    shared?: InMemoryConfirmations;
  } = {},
) {
  const runs = { note: 0, charge: 0 };
  let modelCalls = 0;
  const model: Model = {
    provider: 'scripted',
    modelId: 'scripted-durable',
    async generate(request: ModelRequest) {
      modelCalls += 1;
      if (options.failModel === true) {
        throw new ProviderError({
          provider: 'scripted',
          code: 'invalid_request',
          message: 'bad request',
          retryable: false,
          status: 400,
        });
      }
      if (request.messages.at(-1)?.role === 'user') {
        return toolCallsTurn([
          { id: 'n1', name: 'note', input: { text: 'hello' } },
          { id: 'c1', name: 'charge', input: { cents: 500 } },
        ]);
      }
      return textTurn('done');
    },
  };
  const catalogue = createCatalogue([
    defineTool({
      name: 'note',
      description: 'Writes a note.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      right: everySession,
      ...(options.untrustedNote === true ? {} : { outputTrust: 'trusted' as const }),
      run: () => {
        runs.note += 1;
        return 'noted';
      },
    }),
    defineTool({
      name: 'charge',
      description: 'Charges the card.',
      inputSchema: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] },
      right: 'pay',
      irreversible: true,
      run: () => {
        runs.charge += 1;
        return 'charged';
      },
    }),
  ]);
  const shared = options.shared;
  const definition: DurableCircuit = {
    model,
    catalogue,
    ...(options.rerun === true ? { rerunStartedReversibleCalls: true } : {}),
    ...(options.seal === undefined ? {} : { seal: options.seal }),
    ...(shared === undefined ? {} : { session: (data) => createSession({ ...data, confirmations: shared }) }),
  };
  return { definition, runs, modelCalls: () => modelCalls };
}

const start: DurableRunInput = {
  kind: 'start',
  runId: 'r1',
  session: SESSION,
  messages: [{ role: 'user', content: 'go' }],
};

/**
 * Runs the first segment to its pause, then the approval's segment with `death` on its first execution;
 * `alter` changes the recorded paused state in between, as someone who can write the engine's records could.
 */
async function pauseThenResume(
  death: Death | undefined,
  options: Parameters<typeof circuit>[0] = {},
  alter?: (paused: PausedRun) => PausedRun,
) {
  const subject = circuit(options);
  const outcomes = new Map<string, DurableRunOutcome>();
  const first = await driveDurableRun(start, memoryEngine('r1', [], outcomes), subject.definition);
  const paused = first.result.paused;
  outcomes.set(
    'r1',
    alter === undefined || paused === undefined
      ? first
      : { ...first, result: { ...first.result, paused: alter(paused) } },
  );
  const pending = first.result.paused?.pending[0];
  const segment = resumeSegmentId('r1', 1);
  const resume: DurableRunInput = {
    kind: 'resume',
    runId: 'r1',
    turn: 1,
    previousSegment: 'r1',
    decisions: [{ callId: pending?.callId as string, approved: true, inputDigest: pending?.inputDigest as string }],
    session: SESSION,
  };
  const log: StepLog = [];
  if (death !== undefined) {
    void driveDurableRun(resume, memoryEngine(segment, log, outcomes, death), subject.definition);
    await settle();
  }
  const outcome = await driveDurableRun(resume, memoryEngine(segment, log, outcomes), subject.definition);
  return { first, outcome, subject, log };
}

describe('driveDurableRun (engine-neutral), replayed after a worker dies', () => {
  it('pauses on the irreversible call after running the reversible one, and finishes after the approval', async () => {
    const { first, outcome, subject } = await pauseThenResume(undefined);
    expect(first.status).toBe('paused');
    expect(first.result.paused?.pending.map((call) => call.toolName)).toEqual(['charge']);
    expect(outcome.status).toBe('completed');
    expect(outcome.unknownOutcomes).toEqual([]);
    expect(subject.runs).toEqual({ note: 1, charge: 1 });
  });

  it('never runs a call again that a dead worker started: it is answered "outcome unknown"', async () => {
    const { outcome, subject } = await pauseThenResume({ step: 'tool:charge', phase: 'after-run' });
    expect(subject.runs.charge).toBe(1);
    expect(outcome.status).toBe('completed');
    expect(outcome.unknownOutcomes).toEqual(['c1']);
    const reply = outcome.result.messages.find(
      (message) => message.role === 'tool' && message.content.some((part) => part.callId === 'c1'),
    );
    expect(JSON.stringify(reply)).toMatch(/outcome of this call to \\"charge\\" is unknown/);
  });

  it('reports a call unknown when its start was recorded, even if the tool itself never began', async () => {
    const { outcome, subject } = await pauseThenResume({ step: 'tool:charge', phase: 'before-run' });
    expect(subject.runs.charge).toBe(0);
    expect(outcome.unknownOutcomes).toEqual(['c1']);
  });

  it('runs a call whose start was never recorded: it cannot have begun', async () => {
    const { outcome, subject } = await pauseThenResume({ step: 'tool-start:charge', phase: 'after-run' });
    expect(subject.runs.charge).toBe(1);
    expect(outcome.unknownOutcomes).toEqual([]);
  });

  it('reuses a recorded result when the worker died later, at the next model request', async () => {
    const { outcome, subject } = await pauseThenResume({ step: 'model:scripted', phase: 'after-run' });
    expect(subject.runs).toEqual({ note: 1, charge: 1 });
    expect(outcome.status).toBe('completed');
    expect(outcome.unknownOutcomes).toEqual([]);
  });

  it('runs a started reversible call again when asked to, but never an irreversible one', async () => {
    const subject = circuit({ rerun: true });
    const log: StepLog = [];
    void driveDurableRun(
      start,
      memoryEngine('r1', log, new Map(), { step: 'tool:note', phase: 'after-run' }),
      subject.definition,
    );
    await settle();
    const first = await driveDurableRun(start, memoryEngine('r1', log, new Map()), subject.definition);
    expect(subject.runs.note).toBe(2);
    expect(first.unknownOutcomes).toEqual([]);
    expect(log.some((step) => step.name === 'tool-start:note')).toBe(false);

    const again = await pauseThenResume({ step: 'tool:charge', phase: 'after-run' }, { rerun: true });
    expect(again.subject.runs.charge).toBe(1);
    expect(again.outcome.unknownOutcomes).toEqual(['c1']);
  });

  it('replays a recorded provider error as the same ProviderError, without asking the model again', async () => {
    const subject = circuit({ failModel: true });
    const log: StepLog = [];
    await expect(driveDurableRun(start, memoryEngine('r1', log, new Map()), subject.definition)).rejects.toBeInstanceOf(
      ProviderError,
    );
    const replay = driveDurableRun(start, memoryEngine('r1', log, new Map()), subject.definition);
    await expect(replay).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
    expect(subject.modelCalls()).toBe(1);
  });

  it('refuses decisions for another turn or another session, running nothing', async () => {
    const subject = circuit();
    const outcomes = new Map<string, DurableRunOutcome>();
    const first = await driveDurableRun(start, memoryEngine('r1', [], outcomes), subject.definition);
    outcomes.set('r1', first);
    const pending = first.result.paused?.pending[0];
    const decisions = [
      { callId: pending?.callId as string, approved: true, inputDigest: pending?.inputDigest as string },
    ];
    const base = { kind: 'resume' as const, runId: 'r1', previousSegment: 'r1', decisions };
    await expect(
      driveDurableRun({ ...base, turn: 2, session: SESSION }, memoryEngine('x', [], outcomes), subject.definition),
    ).rejects.toThrow(/turn 2/);
    await expect(
      driveDurableRun(
        { ...base, turn: 1, session: { ...SESSION, humanId: 'mallory' } },
        memoryEngine('y', [], outcomes),
        subject.definition,
      ),
    ).rejects.toThrow(/another session or human/);
    expect(subject.runs.charge).toBe(0);
  });
});

describe('driveDurableRun: paused states between segments', () => {
  const seal = { key: { id: 'pool-key', secret: 'p'.repeat(40) } };

  it('with a key, a paused state altered in the engine records (sources and requests emptied) is refused', async () => {
    const emptied = (paused: PausedRun): PausedRun => ({
      ...paused,
      provenance: { sources: [] },
      pending: paused.pending.map(({ request: _request, ...call }) => call),
    });
    const unaltered = await pauseThenResume(undefined, { seal, untrustedNote: true });
    expect(unaltered.first.result.paused?.seal?.keyId).toBe('pool-key');
    // The note's output (same turn as the charge: it does not gate it) would gate every later turn.
    expect(unaltered.first.result.paused?.provenance?.sources.map((source) => source.callId)).toEqual(['n1']);
    expect(unaltered.outcome.status).toBe('completed');
    await expect(pauseThenResume(undefined, { seal, untrustedNote: true }, emptied)).rejects.toBeInstanceOf(
      StateSealError,
    );
  });

  it('a segment replayed after its worker died resumes the same pause again, with a shared confirmation store', async () => {
    const shared = new InMemoryConfirmations();
    const { outcome, subject } = await pauseThenResume({ step: 'model:scripted', phase: 'after-run' }, { shared });
    expect(outcome.status).toBe('completed');
    expect(subject.runs).toEqual({ note: 1, charge: 1 });
  });
});
