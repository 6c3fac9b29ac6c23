// The fourth process: a human's approvals arriving from outside the worker pool. It follows every run,
// approves each paused payment once with the digest of the arguments it was shown, then tries the same
// approval a second time (a double click, another approver), which must be refused. It reports its counts
// and exits when every run has finished.
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { createDbosRuns } from '@toolcircuit/dbos';
import { POOL_SESSION } from './pool-circuit.mjs';

const { SYSTEM_DATABASE_URL, QUEUE_NAME, RUN_IDS } = process.env;
const client = await DBOSClient.create({ systemDatabaseUrl: SYSTEM_DATABASE_URL, systemDatabasePoolSize: 4 });
const runs = createDbosRuns({ client, queueName: QUEUE_NAME });
const open = new Set(JSON.parse(RUN_IDS));
const approvals = [];
let secondApprovalsRefused = 0;
let secondApprovalsUsed = 0;

while (open.size > 0) {
  for (const runId of [...open]) {
    const state = await runs.state(runId);
    if (state.status === 'paused') {
      const decisions = (state.pending ?? []).map((call) => ({
        callId: call.callId,
        approved: true,
        inputDigest: call.inputDigest,
      }));
      await runs.approve(runId, decisions, POOL_SESSION);
      approvals.push({ runId, turn: state.outcome.result.paused.turn });
      try {
        await runs.approve(runId, decisions, POOL_SESSION);
        secondApprovalsUsed += 1;
      } catch {
        secondApprovalsRefused += 1;
      }
    } else if (state.status !== 'queued' && state.status !== 'running') {
      open.delete(runId);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await client.destroy();
process.send?.({ approvals, secondApprovalsRefused, secondApprovalsUsed });
process.disconnect?.();
