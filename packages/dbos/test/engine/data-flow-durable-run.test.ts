// The data-flow options in a durable run, on the engine-neutral driver: the quarantined reader is a
// durable step like the model (a replay gets the values first extracted, without asking it again), and the
// human's vouched values come in with the decisions of the segment that resumes the run.
import { createCatalogue, defineTool, everySession, type Model, type ModelRequest } from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  type DurableCircuit,
  type DurableRunInput,
  type DurableRunOutcome,
  driveDurableRun,
  resumeSegmentId,
} from '../../src/index.js';
import { memoryEngine, type StepLog } from './memory-engine.js';

const SESSION = { id: 's1', humanId: 'alice', rights: [] };
const IBAN = 'FR7630006000011234567890189';
const fields = { type: 'object', properties: { iban: { type: 'string' } } };

function circuit() {
  const counts = { reader: 0, paid: 0, modelSawInvoice: false };
  const model: Model = {
    provider: 'scripted',
    modelId: 'pays-the-invoice',
    async generate(request: ModelRequest) {
      const text = JSON.stringify(request.messages);
      if (text.includes(IBAN)) counts.modelSawInvoice = true;
      const calls = request.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      if (calls.length === 0) return toolCallsTurn([{ id: 'read', name: 'read_invoice', input: {} }]);
      if (calls.length === 1) return toolCallsTurn([{ id: 'x', name: 'extract', input: { handle: '$doc1', fields } }]);
      if (calls.length === 2) return toolCallsTurn([{ id: 'pay', name: 'send_money', input: { iban: '$doc1.iban' } }]);
      return textTurn('done');
    },
  };
  const reader: Model = {
    provider: 'reader',
    modelId: 'reader',
    async generate() {
      counts.reader += 1;
      return textTurn(JSON.stringify({ iban: IBAN }));
    },
  };
  const catalogue = createCatalogue([
    defineTool({
      name: 'read_invoice',
      description: 'Reads an invoice.',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => ({ iban: IBAN }),
    }),
    defineTool({
      name: 'send_money',
      description: 'Sends money.',
      inputSchema: { type: 'object' },
      right: everySession,
      irreversible: true,
      trustedOnly: ['/iban'],
      run: () => {
        counts.paid += 1;
        return 'sent';
      },
    }),
  ]);
  const definition: DurableCircuit = {
    model,
    catalogue,
    dataFlow: { quarantine: { tools: ['read_invoice'], reader } },
  };
  return { definition, counts };
}

const start: DurableRunInput = {
  kind: 'start',
  runId: 'r1',
  session: SESSION,
  messages: [{ role: 'user', content: 'Pay the invoice.' }],
};

describe('data-flow options in a durable run', () => {
  it('replays the extraction from its step, and resumes with the value the human vouched for', async () => {
    const subject = circuit();
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
    expect(subject.counts.paid).toBe(0);

    const segment = resumeSegmentId('r1', 3);
    const resumedLog: StepLog = [];
    const done = await driveDurableRun(resume(true), memoryEngine(segment, resumedLog, outcomes), subject.definition);
    expect(done.status).toBe('completed');
    expect(subject.counts.paid).toBe(1);
    await driveDurableRun(resume(true), memoryEngine(segment, resumedLog, outcomes), subject.definition);
    expect(subject.counts.paid).toBe(1);
    expect(subject.counts.reader).toBe(1);
    expect(subject.counts.modelSawInvoice).toBe(false);
  });
});
