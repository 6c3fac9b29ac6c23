// A scripted multi-step run for the request-body tests: each step sends the whole history again, as the loop
// does (a new array, the same Message objects, the new turn appended), with thinking, parallel calls, tool
// results in text and JSON, an error result, and a user text merged after the results.
import type {
  AssistantMessage,
  JsonValue,
  Message,
  Model,
  ModelRequest,
  ModelTurn,
  ProviderOptions,
  ToolResultPart,
} from '@toolcircuit/core';
import { toolCallsOf } from '@toolcircuit/core';
import type { ScriptedReply } from '@toolcircuit/testing';
import { message } from './replay.js';
import { CASE_FILE_TOOLS } from './scenario.js';
import {
  blockStop,
  collect,
  jsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  sseText,
  streamFrom,
  textDelta,
  textStart,
  toolStart,
} from './stream-events.js';

type Block =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Record<string, JsonValue>;
    };

interface ScriptedTurn {
  readonly content: readonly Block[];
  readonly stopReason: 'tool_use' | 'end_turn';
}

export const SCRIPT: readonly ScriptedTurn[] = [
  {
    content: [
      { type: 'thinking', thinking: 'Open it, then list the others.', signature: 'EqEECkYICxgC==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va==' },
      { type: 'text', text: 'Je cherche « A-1234 » 🗂️' },
      { type: 'tool_use', id: 'toolu_1', name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { type: 'tool_use', id: 'toolu_2', name: 'lister_dossiers', input: {} },
    ],
    stopReason: 'tool_use',
  },
  {
    content: [
      { type: 'thinking', thinking: 'The list failed; open B-0001.', signature: 'EqFFCkYICxgD==' },
      {
        type: 'tool_use',
        id: 'toolu_3',
        name: 'chercher_dossier',
        input: { numero: 'B-0001', note: 'dit "vite"\n\t— É' },
      },
    ],
    stopReason: 'tool_use',
  },
  { content: [{ type: 'text', text: 'A-1234 is open; B-0001 is closed.' }], stopReason: 'end_turn' },
];

export const SYSTEM = 'You look up case files.';

/** Provider options with nested objects, plus the two params the SDK sends as headers instead of in the body. */
export const PROVIDER_OPTIONS: ProviderOptions = {
  anthropic: {
    thinking: { type: 'enabled', budget_tokens: 1024 },
    metadata: { user_id: 'u-1' },
    stop_sequences: ['FIN'],
    workspace_id: 'wrkspc_test',
    user_profile_id: 'prof_test',
  },
};

const RESULTS: Readonly<Record<string, Omit<ToolResultPart, 'type' | 'callId' | 'name'>>> = {
  toolu_1: {
    content: [
      { type: 'text', text: 'found' },
      { type: 'json', value: { numero: 'A-1234', statut: 'ouvert', notes: ['é', null, 1.5] } },
    ],
    isError: false,
  },
  toolu_2: { content: 'database unavailable', isError: true },
  toolu_3: { content: 'B-0001: fermé', isError: false },
};

export function jsonReply(turn: ScriptedTurn, id: string): ScriptedReply {
  return { contentType: 'application/json', text: JSON.stringify(message([...turn.content], turn.stopReason, { id })) };
}

export function sseReply(turn: ScriptedTurn, id: string): ScriptedReply {
  const events: JsonValue[] = [messageStart(id)];
  turn.content.forEach((block, index) => {
    switch (block.type) {
      case 'thinking':
        events.push(
          { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
          { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } },
          { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } },
        );
        break;
      case 'redacted_thinking':
        events.push({ type: 'content_block_start', index, content_block: { ...block } });
        break;
      case 'text':
        events.push(textStart(index), textDelta(index, block.text));
        break;
      case 'tool_use':
        events.push(toolStart(index, block.id, block.name), jsonDelta(index, JSON.stringify(block.input)));
        break;
    }
    events.push(blockStop(index));
  });
  events.push(messageDelta(turn.stopReason), messageStop);
  return { contentType: 'text/event-stream', text: sseText(events) };
}

export type Mode = 'generate' | 'stream';

export interface RunOptions {
  /** The first history; the scripted turns are appended to it. */
  readonly history?: readonly Message[];
  /** Lets a test change the assistant message the loop appends (e.g. to count serialisations of its calls). */
  readonly keep?: (assistant: AssistantMessage) => AssistantMessage;
}

/** Plays the script against `model` and returns the request of each step. */
export async function runScript(model: Model, mode: Mode, options: RunOptions = {}): Promise<ModelRequest[]> {
  const requests: ModelRequest[] = [];
  let messages: readonly Message[] = options.history ?? [
    { role: 'user', content: 'Open case A-1234 and list the others.' },
  ];
  for (let step = 0; step < SCRIPT.length; step += 1) {
    const request: ModelRequest = {
      system: SYSTEM,
      messages,
      tools: CASE_FILE_TOOLS,
      toolChoice: 'auto',
      maxOutputTokens: 2048,
      temperature: 0.5,
      providerOptions: PROVIDER_OPTIONS,
    };
    requests.push(request);
    const turn = mode === 'generate' ? await model.generate(request) : await streamedTurn(model, request);
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: turn.content,
      ...(turn.providerMetadata === undefined ? {} : { providerMetadata: turn.providerMetadata }),
    };
    messages = [...messages, options.keep?.(assistant) ?? assistant, ...followUp(turn, step)];
  }
  return requests;
}

async function streamedTurn(model: Model, request: ModelRequest): Promise<ModelTurn> {
  const last = (await collect(streamFrom(model, request))).at(-1);
  if (last?.type !== 'turn-end') throw new Error(`expected turn-end, got ${JSON.stringify(last)}`);
  return last.turn;
}

// The tool message answering the turn's calls; after the second step the user also adds a line, which the
// adapter merges into the same API message, after the tool_result blocks.
function followUp(turn: ModelTurn, step: number): Message[] {
  const calls = toolCallsOf(turn.content);
  if (calls.length === 0) return [];
  const content = calls.map((call): ToolResultPart => {
    const result = RESULTS[call.id];
    if (result === undefined) throw new Error(`no scripted result for ${call.id}`);
    return { type: 'tool_result', callId: call.id, name: call.name, ...result };
  });
  const tool: Message = { role: 'tool', content };
  return step === 1 ? [tool, { role: 'user', content: 'Quickly, please.' }] : [tool];
}
