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
 * The durable runner on the same work. `confirmed: false` (the goal's scenario): the tool is not
 * irreversible, so `start` plays the whole run, each turn stored with the start records of its calls
 * (one commit) and their outcomes committed together. `confirmed: true` (the companion): `start` pauses
 * on the first turn's irreversible calls; each turn is then resumed with every call approved (the human's
 * decisions, recorded with the claim), runs its calls under a "started" record and an outcome, and pauses
 * again on the next turn, until the final answer. Concurrency is the turn's size, as for the floor's
 * `Promise.all`.
 */
export function durableRunnerRun(
  scenario: DurableScenario,
  store: DurableStore,
  options: { readonly confirmed: boolean },
): (runId: string) => Promise<void> {
  const runner = createDurableRunner({
    store,
    catalogue: durableCatalogue({ irreversible: options.confirmed }),
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
    const expectedResumes = options.confirmed ? scenario.turns : 0;
    const failed = result.messages.some(
      (message) => message.role === 'tool' && message.content.some((part) => part.isError),
    );
    if (result.status !== 'completed' || resumes !== expectedResumes || text?.text !== FINAL_TEXT || failed) {
      throw new Error(`the durable runner lost its script: ${result.status} after ${resumes} resumes`);
    }
  };
}
