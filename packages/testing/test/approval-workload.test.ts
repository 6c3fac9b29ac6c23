import { createSession, resumeLoop, runLoop } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { APPROVAL_WORKLOAD_RIGHTS, approvalWorkloadCatalogue, approvalWorkloadModel } from '../src/index.js';

describe('the approval workload', () => {
  it('runs the notes, pauses on the payment, and answers once the payment is decided', async () => {
    const effects: string[] = [];
    const options = {
      model: approvalWorkloadModel(3),
      catalogue: approvalWorkloadCatalogue(async (tool, context) => {
        effects.push(`${context.runId}/${context.callId}/${tool}`);
      }),
      session: createSession({ id: 's', humanId: 'h', rights: APPROVAL_WORKLOAD_RIGHTS }),
      confirmation: 'pause' as const,
    };
    const paused = await runLoop({ ...options, runId: 'r7', messages: [{ role: 'user', content: 'r7' }] });
    expect(paused.status).toBe('paused');
    expect(effects).toEqual(['r7/note_1/record_note', 'r7/note_2/record_note', 'r7/note_3/record_note']);
    const pending = paused.paused?.pending[0];
    expect(pending?.input).toEqual({ run: 'r7', cents: 1200 });

    const done = await resumeLoop(
      paused.paused as NonNullable<typeof paused.paused>,
      [{ callId: 'payment', approved: true, inputDigest: pending?.inputDigest as string }],
      options,
    );
    expect(done.status).toBe('completed');
    expect(done.text).toBe('paid and noted');
    expect(effects.at(-1)).toBe('r7/payment/send_payment');
  });

  it('never runs the payment without the right', async () => {
    const effects: string[] = [];
    const result = await runLoop({
      model: approvalWorkloadModel(0),
      catalogue: approvalWorkloadCatalogue(async (tool) => {
        effects.push(tool);
      }),
      session: createSession({ id: 's', humanId: 'h' }),
      confirmation: 'pause',
      messages: [{ role: 'user', content: 'r8' }],
    });
    expect(result.status).toBe('completed');
    expect(effects).toEqual([]);
  });
});
