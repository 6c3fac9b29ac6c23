// The data-flow options in a durable run, on the engine-neutral driver: the quarantined reader is a
// durable step like the model (a replay gets the values first extracted, without asking it again), and the
// human's vouched values come in with the decisions of the segment that resumes the run.
import { describe, expect, it } from 'vitest';
import { type DurableRunInput, type DurableRunOutcome, driveDurableRun, resumeSegmentId } from '../../src/index.js';
import { IBAN, invoiceCircuit } from '../support/invoice-circuit.js';
import { memoryEngine, type StepLog } from './memory-engine.js';

const SESSION = { id: 's1', humanId: 'alice', rights: [] };

const start: DurableRunInput = {
  kind: 'start',
  runId: 'r1',
  session: SESSION,
  messages: [{ role: 'user', content: 'Pay the invoice.' }],
};

describe('data-flow options in a durable run', () => {
  it('replays the extraction from its step, and resumes with the value the human vouched for', async () => {
    const subject = invoiceCircuit();
    const outcomes = new Map<string, DurableRunOutcome>();
    const log: StepLog = [];
    const first = await driveDurableRun(start, memoryEngine('r1', log, outcomes), subject.definition);
    expect(first.status).toBe('paused');
    expect(first.result.paused?.pending[0]?.dataFlow).toMatchObject({ refusedBy: 'trusted-only', vouchFor: ['/iban'] });
    // A second execution of the same segment (a worker restarted it) replays: the reader is not asked again.
    const replayed = await driveDurableRun(start, memoryEngine('r1', log, outcomes), subject.definition);
    expect(replayed.result.paused?.pending).toEqual(first.result.paused?.pending);
    expect(subject.counts.reader).toBe(1);
    outcomes.set('r1', first);

    const pending = first.result.paused?.pending[0];
    const resume = (vouched: boolean): DurableRunInput => ({
      kind: 'resume',
      runId: 'r1',
      turn: 3,
      previousSegment: 'r1',
      decisions: [
        {
          callId: pending?.callId as string,
          approved: true,
          inputDigest: pending?.inputDigest as string,
          ...(vouched ? { vouched: [{ path: '/iban', value: IBAN }] } : {}),
        },
      ],
      session: SESSION,
    });
    const clicked = await driveDurableRun(resume(false), memoryEngine('click', [], outcomes), subject.definition);
    expect(clicked.status).toBe('completed');
    expect(subject.counts.paid).toEqual([]);

    const segment = resumeSegmentId('r1', 3);
    const resumedLog: StepLog = [];
    const done = await driveDurableRun(resume(true), memoryEngine(segment, resumedLog, outcomes), subject.definition);
    expect(done.status).toBe('completed');
    expect(subject.counts.paid).toHaveLength(1);
    await driveDurableRun(resume(true), memoryEngine(segment, resumedLog, outcomes), subject.definition);
    expect(subject.counts.paid).toHaveLength(1);
    expect(subject.counts.reader).toBe(1);
    expect(subject.counts.modelSawInvoice).toBe(false);
  });
});
