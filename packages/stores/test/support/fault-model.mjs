// The model of the fault tests and the fault campaign: for any request, the two calls of the run named in the
// user's message ("run id: <id>"), keys `<id>/a` and `<id>/b`, then, once they are answered, a final answer.
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';

/** @param {import('@toolcircuit/core').ModelRequest} request @param {string} toolName */
function turnFor(request, toolName) {
  const first = request.messages[0];
  const runId = /run id: (\S+)/.exec(typeof first?.content === 'string' ? first.content : '')?.[1] ?? 'unknown';
  return request.messages.some((message) => message.role === 'tool')
    ? textTurn(`finished ${runId}`)
    : toolCallsTurn([
        { id: 'a', name: toolName, input: { key: `${runId}/a` } },
        { id: 'b', name: toolName, input: { key: `${runId}/b` } },
      ]);
}

/** @param {string} toolName the tool both calls go to (its input: `{ key }`) */
export function faultModel(toolName) {
  // One step, replayed for every request of every run the model serves.
  return createScriptedModel(Array.from({ length: 1_000_000 }, () => (request) => turnFor(request, toolName)));
}
