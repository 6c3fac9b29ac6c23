import type { Message, ToolCallPart } from '@toolcircuit/core';
import { Ajv } from 'ajv';
import {
  type DurableScenario,
  FINAL_TEXT,
  scriptedTurn,
  sendTransfer,
  transferSchema,
  userMessages,
} from './durable-world.js';
import type { FloorDatabase } from './floor-database.js';

/**
 * The floor for the durable runner: a hand-written loop over the same scripted model and the same async
 * tool that makes each call exactly-once-or-unknown with the fewest commits: per turn, one commit of a
 * "started" row for every call (before any runs), the calls together, one commit of their outcomes. Inputs
 * are validated with an ajv validator compiled once. No rights, digests, hash chain or human decisions.
 *
 * `confirmed`: the companion floor, which also makes the two commits a human's confirmation needs per turn
 * (the run's state stored while it waits, the decisions recorded before anything runs) and one at the end.
 */
export function durableFloor(
  scenario: DurableScenario,
  database: FloorDatabase,
  options: { readonly confirmed?: boolean } = {},
): (runId: string) => Promise<void> {
  const ajv = new Ajv();
  const validate = ajv.compile(transferSchema);
  return async (runId) => {
    const messages: Message[] = [...userMessages];
    for (let turn = 0; ; turn += 1) {
      // Awaited like a model call; the scripted turn is the runner's too.
      const modelTurn = await Promise.resolve(scriptedTurn(scenario, turn));
      const calls = modelTurn.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
      messages.push({ role: 'assistant', content: modelTurn.content });
      if (calls.length === 0) {
        const text = modelTurn.content[0];
        if (text?.type !== 'text' || text.text !== FINAL_TEXT) throw new Error('the floor lost its script');
        if (options.confirmed === true) await database.commitRunState(runId, turn, JSON.stringify(messages));
        return;
      }
      const valid = calls.map((call) => validate(call.input));
      if (options.confirmed === true) {
        // The companion floor: the run waits for a human (its state stored), who approves every call.
        await database.commitRunState(runId, turn, JSON.stringify(messages));
        await database.commitDecisions(
          runId,
          turn,
          calls.map((call) => call.id),
        );
      }
      await database.commitStarted(
        runId,
        turn,
        calls.map((call) => ({ callId: call.id, toolName: call.name, inputJson: JSON.stringify(call.input) })),
      );
      const results = await Promise.all(
        calls.map(async (call, index) =>
          valid[index]
            ? {
                callId: call.id,
                resultText: await sendTransfer(call.input as { amount: number; to: string }),
                isError: false,
              }
            : { callId: call.id, resultText: ajv.errorsText(validate.errors), isError: true },
        ),
      );
      await database.commitOutcomes(runId, turn, results);
      messages.push({
        role: 'tool',
        content: results.map((result, index) => ({
          type: 'tool_result' as const,
          callId: result.callId,
          name: calls[index]?.name ?? '',
          content: result.resultText,
          isError: result.isError,
        })),
      });
    }
  };
}
