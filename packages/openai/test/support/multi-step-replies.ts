import type { JsonValue } from '@toolcircuit/core';
import type { ScriptedReply } from '@toolcircuit/testing';
import {
  type ChatCallFixture,
  chatCompletion,
  functionCallItem,
  messageItem,
  reasoningItem,
  responsesResponse,
} from './cassettes.js';
import { chatSse, jsonReply, typedSse } from './scripted-replies.js';

/** One scripted model turn: optional text, then parallel calls (none on the last turn). */
interface ScriptedTurn {
  readonly text?: string;
  readonly reasoning?: string;
  readonly calls: readonly ChatCallFixture[];
}

/** Three parallel calls, then two, then a final answer: the history grows by a turn and a reply each step. */
const TURNS: readonly ScriptedTurn[] = [
  {
    text: 'Je cherche les trois — un instant.',
    reasoning: 'Trois recherches indépendantes.',
    calls: [
      { id: 'call_1', name: 'chercher_dossier', arguments: '{"numero":"A-1234"}' },
      { id: 'call_2', name: 'chercher_dossier', arguments: '{"numero":"É-0002"}' },
      { id: 'call_3', name: 'lister_dossiers', arguments: '{}' },
    ],
  },
  {
    reasoning: 'La liste a expiré ; je réessaie.',
    calls: [
      { id: 'call_4', name: 'lister_dossiers', arguments: '{}' },
      { id: 'call_5', name: 'chercher_dossier', arguments: '{"numero":"B-7777"}' },
    ],
  },
  { text: 'A-1234 est ouvert ; É-0002 aussi ; la liste a expiré deux fois.', calls: [] },
];

export const SCRIPTED_STEPS = TURNS.length;

export function chatReplies(form: 'json' | 'sse'): ScriptedReply[] {
  return TURNS.map((turn) =>
    form === 'json'
      ? jsonReply(chatCompletion({ content: turn.text ?? null, toolCalls: turn.calls }))
      : chatSse(chatChunks(turn)),
  );
}

export function responsesReplies(form: 'json' | 'sse'): ScriptedReply[] {
  return TURNS.map((turn, step) => {
    const response = responsesResponse({ output: responsesOutput(turn, step), model: 'gpt-5-mini-2025-08-07' });
    if (form === 'json') return jsonReply(response);
    const created = { ...(response as Record<string, JsonValue>), status: 'in_progress', output: [], usage: null };
    return typedSse([
      { type: 'response.created', sequence_number: 0, response: created },
      { type: 'response.completed', sequence_number: 1, response },
    ]);
  });
}

function responsesOutput(turn: ScriptedTurn, step: number): JsonValue[] {
  const output: JsonValue[] = [];
  if (turn.reasoning !== undefined) output.push(reasoningItem(`rs_${step}`, [turn.reasoning], `gAAAAB-enc-${step}`));
  if (turn.text !== undefined) output.push(messageItem(`msg_${step}`, turn.text));
  for (const call of turn.calls) output.push(functionCallItem(`fc_${call.id}`, call.id, call.name, call.arguments));
  return output;
}

/** The turn as gpt-4o streams it: text deltas, then per call a start and its arguments in two pieces. */
function chatChunks(turn: ScriptedTurn): JsonValue[] {
  const chunks: JsonValue[] = [chunk({ role: 'assistant', content: '' })];
  if (turn.text !== undefined) chunks.push(chunk({ content: turn.text }));
  turn.calls.forEach((call, index) => {
    const half = Math.ceil(call.arguments.length / 2);
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
  });
  chunks.push(chunk({}, turn.calls.length > 0 ? 'tool_calls' : 'stop'));
  chunks.push({
    ...(chunk({}) as Record<string, JsonValue>),
    choices: [],
    usage: { prompt_tokens: 71, completion_tokens: 46, total_tokens: 117 },
  });
  return chunks;
}

function chunk(delta: { readonly [key: string]: JsonValue }, finishReason: string | null = null): JsonValue {
  return {
    id: 'chatcmpl-synthetic',
    object: 'chat.completion.chunk',
    created: 1764579600,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_synthetic',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}
