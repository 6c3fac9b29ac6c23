import { fileURLToPath } from 'node:url';
import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction, SseEvent } from '../cassettes/cassette.js';
import { loadCassette } from '../cassettes/load-cassette.js';

/**
 * The committed synthetic cassettes (`packages/testing/synthetic-cassettes/<group>/<name>.json`): shapes no public
 * recording in `fixtures/recorded` has — items, blocks and parts of types the adapters do not know, requests to
 * act of unknown types, Anthropic's `pause_turn` and `refusal` stop reasons, error events inside a stream, the
 * 5xx bodies of each provider. Written by `scripts/write-synthetic-cassettes.mjs` from the definitions below;
 * every one says it is synthetic in its provenance.
 */
export function syntheticCassettesDirectory(): string {
  return fileURLToPath(new URL('../../synthetic-cassettes/', import.meta.url));
}

/** A synthetic cassette by name, e.g. `anthropic/pause-turn`. */
export function loadSyntheticCassette(name: string): Cassette {
  return loadCassette(name, { directory: syntheticCassettesDirectory() });
}

const GROUP: Readonly<Record<CassetteProtocol, string>> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
};

const PATH: Readonly<Record<CassetteProtocol, string>> = {
  'anthropic-messages': '/v1/messages',
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  gemini: '/v1beta/models/gemini-2.5-flash:generateContent',
};

const MODEL: Readonly<Record<CassetteProtocol, string>> = {
  'anthropic-messages': 'claude-sonnet-4-6',
  'openai-chat': 'gpt-4o',
  'openai-responses': 'gpt-5-mini',
  gemini: 'gemini-2.5-flash',
};

const SHAPES =
  'NOT real traffic: ids, signatures and token counts are made up; the shapes follow the API references and the ' +
  'recorded cassettes of the same protocol in packages/testing/cassettes.';

interface Definition {
  readonly protocol: CassetteProtocol;
  readonly name: string;
  /** What the cassette exercises, said in its provenance note. */
  readonly about: string;
  readonly interactions: readonly Interaction[];
}

function json(protocol: CassetteProtocol, body: JsonValue, status = 200): Interaction {
  return {
    request: { method: 'POST', path: PATH[protocol] },
    response: { status, headers: { 'content-type': 'application/json' }, body: { kind: 'json', json: body } },
  };
}

function sse(protocol: CassetteProtocol, events: readonly (JsonObject | [string, JsonObject])[]): Interaction {
  const path = protocol === 'gemini' ? '/v1beta/models/gemini-2.5-flash:streamGenerateContent' : PATH[protocol];
  const list: SseEvent[] = events.map((event) =>
    Array.isArray(event) ? { event: event[0], data: JSON.stringify(event[1]) } : { data: JSON.stringify(event) },
  );
  if (protocol === 'openai-chat') list.push({ data: '[DONE]' });
  return {
    request: { method: 'POST', path, ...(protocol === 'gemini' ? { query: { alt: 'sse' } } : {}) },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'sse', events: list } },
  };
}

// ---------------------------------------------------------------------------------------------- Anthropic

const ANTHROPIC_USAGE = {
  input_tokens: 412,
  output_tokens: 38,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function message(content: JsonValue[], stop: string, extra: JsonObject = {}): JsonObject {
  return {
    id: 'msg_01SyntheticAbcdefghijklmn',
    type: 'message',
    role: 'assistant',
    model: MODEL['anthropic-messages'],
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: ANTHROPIC_USAGE,
    ...extra,
  };
}

/** A Messages stream of whole blocks: each block's start (with its content), its deltas, its stop. */
function anthropicStream(
  blocks: readonly { start: JsonObject; deltas?: readonly JsonObject[] }[],
  stop: string,
  tail: readonly [string, JsonObject][] = [],
  delta: JsonObject = {},
): [string, JsonObject][] {
  const events: [string, JsonObject][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          ...message([], stop),
          content: [],
          stop_reason: null,
          usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: block.start }]);
    for (const piece of block.deltas ?? [])
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: piece }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  if (tail.length > 0) return [...events, ...tail];
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null, ...delta },
      usage: { output_tokens: 38 },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

const UNKNOWN_BLOCK = { type: 'hologram', id: 'holo_01Synthetic', frames: [{ at: 0, shape: 'cube' }] };
const WEB_SEARCH_USE = {
  type: 'server_tool_use',
  id: 'srvtoolu_01Synthetic',
  name: 'web_search',
  input: { query: 'toolcircuit release notes' },
};
const WEB_SEARCH_RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01Synthetic',
  content: [
    {
      type: 'web_search_result',
      url: 'https://example.org/notes',
      title: 'Release notes',
      encrypted_content: 'EqoBCkYIBxgCIkDsynthetic',
      page_age: null,
    },
  ],
};
const REFUSAL_DETAILS = {
  type: 'refusal',
  category: 'cyber',
  explanation: 'This request was blocked under the usage policy (synthetic).',
};
const ANTHROPIC_ERROR = (type: string, text: string) => ({
  type: 'error',
  error: { type, message: text },
  request_id: 'req_011Synthetic',
});

const ANTHROPIC: readonly Definition[] = [
  {
    protocol: 'anthropic-messages',
    name: 'unknown-block',
    about:
      'a content block of a type no adapter knows (`hologram`) between two texts, not streamed; then the answer to the request that sends it back',
    interactions: [
      json(
        'anthropic-messages',
        message([{ type: 'text', text: 'Before.' }, UNKNOWN_BLOCK, { type: 'text', text: 'After.' }], 'end_turn'),
      ),
      json('anthropic-messages', message([{ type: 'text', text: 'Noted.' }], 'end_turn')),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'unknown-block.chunks',
    about: 'the same unknown block streamed: started whole, grown by a delta of an unknown type',
    interactions: [
      sse(
        'anthropic-messages',
        anthropicStream(
          [
            { start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: 'Before.' }] },
            {
              start: { type: 'hologram', id: 'holo_01Synthetic', frames: [] },
              deltas: [{ type: 'hologram_delta', caption: 'a cube' }],
            },
            { start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: 'After.' }] },
          ],
          'end_turn',
        ),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'unknown-use-block',
    about: 'a request to act of an unknown type (`teleport_use`) that nothing can answer, not streamed',
    interactions: [
      json(
        'anthropic-messages',
        message([{ type: 'teleport_use', id: 'tpu_01Synthetic', name: 'teleport', input: { to: 'mars' } }], 'tool_use'),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'unknown-use-block.chunks',
    about: 'the same unknown request to act, streamed',
    interactions: [
      sse(
        'anthropic-messages',
        anthropicStream(
          [
            {
              start: { type: 'teleport_use', id: 'tpu_01Synthetic', name: 'teleport', input: {} },
              deltas: [{ type: 'input_json_delta', partial_json: '{"to":"mars"}' }],
            },
          ],
          'tool_use',
        ),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'pause-turn',
    about:
      'a long server-tool turn the API paused (`pause_turn`) after a web search, then the same turn continued to its end once the paused content was sent back',
    interactions: [
      json('anthropic-messages', message([WEB_SEARCH_USE, WEB_SEARCH_RESULT], 'pause_turn')),
      json('anthropic-messages', message([{ type: 'text', text: 'The notes list three fixes.' }], 'end_turn')),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'pause-turn.chunks',
    about: 'the paused turn streamed (server tool blocks, then `pause_turn` in message_delta)',
    interactions: [
      sse(
        'anthropic-messages',
        anthropicStream([{ start: WEB_SEARCH_USE }, { start: WEB_SEARCH_RESULT }], 'pause_turn'),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'refusal',
    about: 'the `refusal` stop reason with its `stop_details`, and no content',
    interactions: [json('anthropic-messages', message([], 'refusal', { stop_details: REFUSAL_DETAILS }))],
  },
  {
    protocol: 'anthropic-messages',
    name: 'refusal.chunks',
    about: 'a refusal streamed: some text, then `refusal` and its `stop_details` in message_delta',
    interactions: [
      sse(
        'anthropic-messages',
        anthropicStream(
          [{ start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: 'I can' }] }],
          'refusal',
          [],
          { stop_details: REFUSAL_DETAILS },
        ),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'stream-error-event.chunks',
    about: 'an `error` event (overloaded_error) inside a 200 stream, after text had started',
    interactions: [
      sse(
        'anthropic-messages',
        anthropicStream([], 'end_turn', [
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
          [
            'content_block_delta',
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial' } },
          ],
          ['error', ANTHROPIC_ERROR('overloaded_error', 'Overloaded')],
        ]),
      ),
    ],
  },
  {
    protocol: 'anthropic-messages',
    name: 'http-500',
    about: "an HTTP 500 with the API's `api_error` body",
    interactions: [json('anthropic-messages', ANTHROPIC_ERROR('api_error', 'Internal server error'), 500)],
  },
  {
    protocol: 'anthropic-messages',
    name: 'http-529',
    about: "an HTTP 529 with the API's `overloaded_error` body",
    interactions: [json('anthropic-messages', ANTHROPIC_ERROR('overloaded_error', 'Overloaded'), 529)],
  },
];

// ------------------------------------------------------------------------------------------- OpenAI Chat

function completion(message: JsonObject, finish: string): JsonObject {
  return {
    id: 'chatcmpl-Synthetic',
    object: 'chat.completion',
    created: 1767225600,
    model: 'gpt-4o-2024-08-06',
    choices: [
      { index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, finish_reason: finish },
    ],
    usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 },
  };
}

function chunk(delta: JsonObject, finish: string | null = null): JsonObject {
  return {
    id: 'chatcmpl-Synthetic',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

const OPENAI_ERROR = (type: string, code: string | null, text: string) => ({
  error: { message: text, type, param: null, code },
});

const AUDIO = { id: 'audio_Synthetic', data: 'UklGRg==', expires_at: 1767229200, transcript: 'Hello.' };

const CHAT: readonly Definition[] = [
  {
    protocol: 'openai-chat',
    name: 'unknown-message-field',
    about:
      "a message with a field no adapter reads (`audio`) and a compatible server's `reasoning_content`, not streamed",
    interactions: [
      json('openai-chat', completion({ content: 'Hello.', audio: AUDIO, reasoning_content: 'Greet back.' }, 'stop')),
    ],
  },
  {
    protocol: 'openai-chat',
    name: 'unknown-message-field.chunks',
    about: 'the same fields streamed: `reasoning_content` pieces, then `audio`, then the text',
    interactions: [
      sse('openai-chat', [
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_content: 'Greet ' }),
        chunk({ reasoning_content: 'back.' }),
        chunk({ audio: AUDIO }),
        chunk({ content: 'Hello.' }),
        chunk({}, 'stop'),
      ]),
    ],
  },
  {
    protocol: 'openai-chat',
    name: 'unknown-tool-call-type',
    about: 'a tool call of a type no adapter knows (`teleport`), which nothing can answer, not streamed',
    interactions: [
      json(
        'openai-chat',
        completion(
          { content: null, tool_calls: [{ id: 'call_Synthetic1', type: 'teleport', teleport: { to: 'mars' } }] },
          'tool_calls',
        ),
      ),
    ],
  },
  {
    protocol: 'openai-chat',
    name: 'unknown-tool-call-type.chunks',
    about: 'the same unknown call type, streamed',
    interactions: [
      sse('openai-chat', [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_Synthetic1', type: 'teleport', teleport: { to: 'mars' } }],
        }),
        chunk({}, 'tool_calls'),
      ]),
    ],
  },
  {
    protocol: 'openai-chat',
    name: 'http-500',
    about: "an HTTP 500 with OpenAI's `server_error` body",
    interactions: [
      json(
        'openai-chat',
        OPENAI_ERROR('server_error', null, 'The server had an error while processing your request.'),
        500,
      ),
    ],
  },
  {
    protocol: 'openai-chat',
    name: 'http-503',
    about: "an HTTP 503 with OpenAI's overload body",
    interactions: [
      json(
        'openai-chat',
        OPENAI_ERROR(
          'server_error',
          'server_is_overloaded',
          'The engine is currently overloaded, please try again later.',
        ),
        503,
      ),
    ],
  },
];

// ---------------------------------------------------------------------------------------- OpenAI Responses

function response(output: JsonValue[], status = 'completed'): JsonObject {
  return {
    id: 'resp_Synthetic',
    object: 'response',
    created_at: 1767225600,
    status,
    error: null,
    incomplete_details: null,
    model: 'gpt-5-mini-2025-08-07',
    output,
    usage: {
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 150,
    },
  };
}

const OUTPUT_MESSAGE = {
  id: 'msg_Synthetic',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Here is the map.', annotations: [] }],
};
const UNKNOWN_ITEM = {
  id: 'holo_Synthetic',
  type: 'hologram',
  status: 'completed',
  frames: [{ at: 0, shape: 'cube' }],
};
const UNKNOWN_CALL = {
  id: 'tp_Synthetic',
  type: 'teleport_call',
  status: 'completed',
  call_id: 'call_SyntheticTeleport',
  destination: 'mars',
};

/** A Responses stream of finished items: each added, then done, then the completed response. */
function responsesStream(output: readonly JsonObject[]): JsonObject[] {
  let sequence = 0;
  const events: JsonObject[] = [
    { type: 'response.created', sequence_number: sequence++, response: response([], 'in_progress') },
  ];
  output.forEach((item, index) => {
    events.push({
      type: 'response.output_item.added',
      output_index: index,
      sequence_number: sequence++,
      item: { ...item, status: 'in_progress' },
    });
    events.push({ type: 'response.output_item.done', output_index: index, sequence_number: sequence++, item });
  });
  events.push({ type: 'response.completed', sequence_number: sequence, response: response([...output]) });
  return events;
}

const RESPONSES: readonly Definition[] = [
  {
    protocol: 'openai-responses',
    name: 'unknown-item',
    about:
      'an output item of a type no adapter knows (`hologram`) before a message, not streamed; then the answer to the request that sends it back',
    interactions: [
      json('openai-responses', response([UNKNOWN_ITEM, OUTPUT_MESSAGE])),
      json(
        'openai-responses',
        response([{ ...OUTPUT_MESSAGE, content: [{ type: 'output_text', text: 'Noted.', annotations: [] }] }]),
      ),
    ],
  },
  {
    protocol: 'openai-responses',
    name: 'unknown-item.chunks',
    about: 'the same unknown item, streamed',
    interactions: [sse('openai-responses', responsesStream([UNKNOWN_ITEM, OUTPUT_MESSAGE]))],
  },
  {
    protocol: 'openai-responses',
    name: 'unknown-call',
    about: 'a request to act of an unknown type (`teleport_call`, with a call_id nothing answered), not streamed',
    interactions: [json('openai-responses', response([UNKNOWN_CALL]))],
  },
  {
    protocol: 'openai-responses',
    name: 'unknown-call.chunks',
    about: 'the same unknown request to act, streamed',
    interactions: [sse('openai-responses', responsesStream([UNKNOWN_CALL]))],
  },
  {
    protocol: 'openai-responses',
    name: 'http-500',
    about: "an HTTP 500 with OpenAI's `server_error` body",
    interactions: [
      json(
        'openai-responses',
        OPENAI_ERROR('server_error', null, 'The server had an error while processing your request.'),
        500,
      ),
    ],
  },
  {
    protocol: 'openai-responses',
    name: 'http-503',
    about: "an HTTP 503 with OpenAI's overload body",
    interactions: [
      json(
        'openai-responses',
        OPENAI_ERROR(
          'server_error',
          'server_is_overloaded',
          'The engine is currently overloaded, please try again later.',
        ),
        503,
      ),
    ],
  },
];

// ------------------------------------------------------------------------------------------------- Gemini

function gemini(parts: JsonValue[], finish: string | undefined = 'STOP'): JsonObject {
  return {
    candidates: [
      { content: { role: 'model', parts }, ...(finish === undefined ? {} : { finishReason: finish }), index: 0 },
    ],
    usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 },
    modelVersion: MODEL.gemini,
    responseId: 'SyntheticResponseId',
  };
}

const IMAGE_PART = {
  inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  thoughtSignature: 'CsYBSyntheticSig',
};
const UNKNOWN_CALL_PART = { teleportCall: { to: 'mars' } };
const GOOGLE_ERROR = (code: number, status: string, text: string) => ({ error: { code, message: text, status } });

const GEMINI: readonly Definition[] = [
  {
    protocol: 'gemini',
    name: 'unknown-part',
    about:
      'a part this adapter does not read (an image the model made, with its signature) between two texts; then the answer to the request that sends it back',
    interactions: [
      json('gemini', gemini([{ text: 'Here it is:' }, IMAGE_PART, { text: 'Done.' }])),
      json('gemini', gemini([{ text: 'Noted.' }])),
    ],
  },
  {
    protocol: 'gemini',
    name: 'unknown-part.chunks',
    about: 'the same parts streamed, one chunk each',
    interactions: [
      sse('gemini', [
        gemini([{ text: 'Here it is:' }], undefined),
        gemini([IMAGE_PART], undefined),
        gemini([{ text: 'Done.' }]),
      ]),
    ],
  },
  {
    protocol: 'gemini',
    name: 'unknown-call-part',
    about: 'a `…Call` part of an unknown kind (`teleportCall`) with no response part: a request nothing answers',
    interactions: [json('gemini', gemini([UNKNOWN_CALL_PART]))],
  },
  {
    protocol: 'gemini',
    name: 'unknown-call-part.chunks',
    about: 'the same unknown call part, streamed',
    interactions: [sse('gemini', [gemini([UNKNOWN_CALL_PART])])],
  },
  {
    protocol: 'gemini',
    name: 'stream-error-chunk.chunks',
    about: 'an error chunk (503 UNAVAILABLE) inside a 200 stream, after a text chunk',
    interactions: [
      sse('gemini', [
        gemini([{ text: 'Partial' }], undefined),
        GOOGLE_ERROR(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
      ]),
    ],
  },
  {
    protocol: 'gemini',
    name: 'http-500',
    about: "an HTTP 500 with Google's `INTERNAL` body",
    interactions: [
      json(
        'gemini',
        GOOGLE_ERROR(
          500,
          'INTERNAL',
          'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
        ),
        500,
      ),
    ],
  },
  {
    protocol: 'gemini',
    name: 'http-503',
    about: "an HTTP 503 with Google's `UNAVAILABLE` body",
    interactions: [
      json('gemini', GOOGLE_ERROR(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'), 503),
    ],
  },
];

/** Every synthetic cassette, as the text of its file, keyed by `<group>/<name>.json`. */
export function renderSyntheticCassettes(): Map<string, string> {
  const files = new Map<string, string>();
  for (const definition of [...ANTHROPIC, ...CHAT, ...RESPONSES, ...GEMINI]) {
    const cassette: Cassette = {
      format: 'toolcircuit-cassette/1',
      protocol: definition.protocol,
      provenance: {
        kind: 'synthetic',
        note: `Synthetic: ${definition.about}. Written by packages/testing/scripts/write-synthetic-cassettes.mjs from src/synthetic/synthetic-cassettes.ts. ${SHAPES}`,
      },
      model: MODEL[definition.protocol],
      interactions: definition.interactions,
    };
    files.set(`${GROUP[definition.protocol]}/${definition.name}.json`, `${JSON.stringify(cassette, null, 2)}\n`);
  }
  return files;
}
