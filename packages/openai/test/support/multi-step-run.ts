import type {
  AssistantMessage,
  Message,
  Model,
  ModelRequest,
  ModelTurn,
  ToolMessage,
  ToolResultPart,
} from '@toolcircuit/core';
import { toolCallsOf } from '@toolcircuit/core';
import { collect, streamOf } from './replay.js';

/** How a step reaches the model: `generate()`, or `stream()` read up to its `turn-end`. */
export type Send = (model: Model, request: ModelRequest) => Promise<ModelTurn>;

export const viaGenerate: Send = (model, request) => model.generate(request);

export const viaStream: Send = async (model, request) => {
  const events = await collect(streamOf(model, request));
  const end = events.at(-1);
  if (end?.type !== 'turn-end') throw new Error(`stream ended with ${JSON.stringify(end)}`);
  return end.turn;
};

/**
 * Plays a conversation the way the loop does: each step sends a new messages array holding the same message
 * objects as before plus the last turn and its one tool reply. Returns the requests, in order.
 */
export async function runSteps(
  model: Model,
  send: Send,
  base: Omit<ModelRequest, 'messages'>,
  steps: number,
): Promise<ModelRequest[]> {
  const requests: ModelRequest[] = [];
  let messages: readonly Message[] = [{ role: 'user', content: 'Trouve A-1234, É-0002 et la liste des dossiers.' }];
  for (let step = 0; step < steps; step += 1) {
    const request: ModelRequest = { ...base, messages };
    requests.push(request);
    const turn = await send(model, request);
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: turn.content,
      ...(turn.providerMetadata === undefined ? {} : { providerMetadata: turn.providerMetadata }),
    };
    messages = [...messages, assistant, toolReply(turn)];
  }
  return requests;
}

/** One reply with every call's result, cycling through a text result, a text + json result and an error. */
function toolReply(turn: ModelTurn): ToolMessage {
  const content = toolCallsOf(turn.content).map((call, index): ToolResultPart => {
    const base = { type: 'tool_result' as const, callId: call.id, name: call.name };
    if (index % 3 === 0) return { ...base, content: `${call.id}: ouvert, juge Martín — 41,20 €.`, isError: false };
    if (index % 3 === 1) {
      return {
        ...base,
        content: [
          { type: 'text', text: `${call.id}: 2 dossiers` },
          { type: 'json', value: { dossiers: [{ numero: 'A-1234', ouvert: true, montant: 41.2 }], page: 1 } },
        ],
        isError: false,
      };
    }
    return { ...base, content: `${call.id} timed out after 30 s`, isError: true };
  });
  return { role: 'tool', content };
}
