import { createDurableRunner, type DurableStore } from '@toolcircuit/stores';
import {
  type DurableScenario,
  durableCatalogue,
  durableModel,
  durableSession,
  FINAL_TEXT,
  userMessages,
} from './durable-world.js';

/**
 * The durable runner on the same work: `start` pauses on the first turn's irreversible calls; each turn is
 * then resumed with every call approved (the human's decisions, recorded with the claim), runs its calls
 * under a "started" record and an outcome, and pauses again on the next turn, until the final answer.
 * Concurrency is the turn's size, as for the floor's `Promise.all`.
 */
export function durableRunnerRun(scenario: DurableScenario, store: DurableStore): (runId: string) => Promise<void> {
  const runner = createDurableRunner({
    store,
    catalogue: durableCatalogue(),
    model: durableModel(scenario),
    concurrency: scenario.calls,
    maxTurns: scenario.turns + 1,
    workerId: 'bench-worker',
  });
  return async (runId) => {
    const session = durableSession();
    let result = await runner.start({ session, messages: userMessages, runId });
    let resumes = 0;
    while (result.status === 'paused' && result.paused !== undefined) {
      const decisions = result.paused.pending.map((pending) => ({
        callId: pending.callId,
        approved: true,
        inputDigest: pending.inputDigest,
      }));
      result = await runner.resume(runId, decisions, { session });
      resumes += 1;
    }
    const last = result.messages.at(-1);
    const text = last?.role === 'assistant' ? last.content.find((part) => part.type === 'text') : undefined;
    if (result.status !== 'completed' || resumes !== scenario.turns || text?.text !== FINAL_TEXT) {
      throw new Error(`the durable runner lost its script: ${result.status} after ${resumes} resumes`);
    }
  };
}
