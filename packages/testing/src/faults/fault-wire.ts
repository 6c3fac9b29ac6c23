import type { CassetteProtocol } from '../cassettes/cassette.js';

/** The provider-side causes a fault case can ask a protocol to express in its own error body. */
export type HttpFaultKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'overloaded';

/** An HTTP error as one provider sends it: status, JSON body and the provider code the body carries. */
export interface HttpFault {
  readonly status: number;
  readonly body: string;
  readonly providerCode: string;
  readonly message: string;
}

/**
 * How one protocol writes the faults of the table (synthetic, shaped after the providers' documented error
 * bodies and the recorded streams in `cassettes/`).
 */
export interface FaultWire {
  readonly protocol: CassetteProtocol;
  /** An HTTP error of this kind; `status` overrides the provider's usual one (529 on every provider). */
  httpError(kind: HttpFaultKind, status?: number, retryAfterSeconds?: number): HttpFault;
  /** Headers of a successful streamed answer. */
  readonly streamHeaders: Readonly<Record<string, string>>;
  /** A whole non-streamed answer holding one complete call: cut in half, it is a body lost mid-way. */
  readonly completeBody: string;
  /**
   * A stream that stops cleanly at an event boundary before the provider's end-of-turn marker, holding some
   * text and one complete call: a turn that never finished.
   */
  readonly streamWithoutEnd: string;
  /** A 200 stream whose only event is the provider's in-stream error for an overloaded service. */
  readonly streamErrorEvent: { readonly body: string; readonly providerCode: string; readonly message: string };
  /** Headers an HTTP error of a streamed request comes with (Gemini sends its JSON error as an event stream). */
  readonly streamErrorHeaders: Readonly<Record<string, string>>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const SSE_HEADERS = { 'content-type': 'text/event-stream' };

function sse(events: readonly (readonly [string | undefined, unknown])[]): string {
  return events
    .map(([event, data]) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`)
    .join('');
}

const ANTHROPIC_ERRORS: Readonly<Record<HttpFaultKind, readonly [number, string]>> = {
  invalid_request: [400, 'invalid_request_error'],
  authentication: [401, 'authentication_error'],
  permission: [403, 'permission_error'],
  not_found: [404, 'not_found_error'],
  rate_limited: [429, 'rate_limit_error'],
  server_error: [500, 'api_error'],
  overloaded: [529, 'overloaded_error'],
};

const anthropicFaultWire: FaultWire = {
  protocol: 'anthropic-messages',
  httpError(kind, status) {
    const [usual, type] = ANTHROPIC_ERRORS[kind];
    const message = `synthetic ${kind} fault`;
    const body = JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_synthetic' });
    return { status: status ?? usual, body, providerCode: type, message };
  },
  streamHeaders: SSE_HEADERS,
  completeBody: JSON.stringify({
    id: 'msg_synthetic',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content: [{ type: 'tool_use', id: 'toolu_synthetic_1', name: 'lister_dossiers', input: { filtre: 'ouverts' } }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 10 },
  }),
  streamWithoutEnd: sse([
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_synthetic',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ans' } },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_synthetic_1', name: 'lister_dossiers', input: {} },
      },
    ],
    [
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"filtre":"ouverts"}' },
      },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ]),
  streamErrorEvent: {
    body: sse([['error', { type: 'error', error: { type: 'overloaded_error', message: 'synthetic overload' } }]]),
    providerCode: 'overloaded_error',
    message: 'synthetic overload',
  },
  streamErrorHeaders: JSON_HEADERS,
};

const OPENAI_ERRORS: Readonly<Record<HttpFaultKind, readonly [number, string, string | null]>> = {
  invalid_request: [400, 'invalid_request_error', null],
  authentication: [401, 'invalid_request_error', 'invalid_api_key'],
  permission: [403, 'invalid_request_error', 'unsupported_country_region_territory'],
  not_found: [404, 'invalid_request_error', 'model_not_found'],
  rate_limited: [429, 'requests', 'rate_limit_exceeded'],
  server_error: [500, 'server_error', null],
  overloaded: [503, 'server_error', null],
};

function openaiHttpError(kind: HttpFaultKind, status: number | undefined): HttpFault {
  const [usual, type, code] = OPENAI_ERRORS[kind];
  const message = `synthetic ${kind} fault`;
  const body = JSON.stringify({ error: { message, type, param: null, code } });
  return { status: status ?? usual, body, providerCode: code ?? type, message };
}

const openaiChatFaultWire: FaultWire = {
  protocol: 'openai-chat',
  httpError: (kind, status) => openaiHttpError(kind, status),
  streamHeaders: SSE_HEADERS,
  completeBody: JSON.stringify({
    id: 'chatcmpl-synthetic',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4.1',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_synthetic_1',
              type: 'function',
              function: { name: 'lister_dossiers', arguments: '{"filtre":"ouverts"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  }),
  streamWithoutEnd: sse([
    [
      undefined,
      {
        id: 'chatcmpl-synthetic',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4.1',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ans' }, finish_reason: null }],
      },
    ],
    [
      undefined,
      {
        id: 'chatcmpl-synthetic',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4.1',
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: 'call_synthetic_1',
                  type: 'function',
                  function: { name: 'lister_dossiers', arguments: '{"filtre":"ouverts"}' },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      },
    ],
  ]),
  streamErrorEvent: {
    body: sse([
      [undefined, { error: { message: 'synthetic overload', type: 'server_error', code: 'server_is_overloaded' } }],
    ]),
    providerCode: 'server_is_overloaded',
    message: 'synthetic overload',
  },
  streamErrorHeaders: JSON_HEADERS,
};

const RESPONSE_SHELL = {
  id: 'resp_synthetic',
  object: 'response',
  created_at: 1,
  status: 'in_progress',
  model: 'gpt-4.1',
  output: [],
  error: null,
  incomplete_details: null,
  usage: null,
};

const FUNCTION_CALL_ITEM = {
  id: 'fc_synthetic_1',
  type: 'function_call',
  status: 'completed',
  arguments: '{"filtre":"ouverts"}',
  call_id: 'call_synthetic_1',
  name: 'lister_dossiers',
};

const openaiResponsesFaultWire: FaultWire = {
  protocol: 'openai-responses',
  httpError: (kind, status) => openaiHttpError(kind, status),
  streamHeaders: SSE_HEADERS,
  completeBody: JSON.stringify({
    ...RESPONSE_SHELL,
    status: 'completed',
    output: [FUNCTION_CALL_ITEM],
    usage: { input_tokens: 20, output_tokens: 10, total_tokens: 30 },
  }),
  streamWithoutEnd: sse([
    ['response.created', { type: 'response.created', sequence_number: 0, response: RESPONSE_SHELL }],
    [
      'response.output_item.added',
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 0,
        item: { ...FUNCTION_CALL_ITEM, status: 'in_progress', arguments: '' },
      },
    ],
    [
      'response.function_call_arguments.delta',
      {
        type: 'response.function_call_arguments.delta',
        sequence_number: 2,
        item_id: FUNCTION_CALL_ITEM.id,
        output_index: 0,
        delta: FUNCTION_CALL_ITEM.arguments,
      },
    ],
    [
      'response.function_call_arguments.done',
      {
        type: 'response.function_call_arguments.done',
        sequence_number: 3,
        item_id: FUNCTION_CALL_ITEM.id,
        output_index: 0,
        arguments: FUNCTION_CALL_ITEM.arguments,
      },
    ],
    [
      'response.output_item.done',
      { type: 'response.output_item.done', sequence_number: 4, output_index: 0, item: FUNCTION_CALL_ITEM },
    ],
  ]),
  streamErrorEvent: {
    body: sse([
      [
        'error',
        { type: 'error', sequence_number: 0, code: 'server_is_overloaded', message: 'synthetic overload', param: null },
      ],
    ]),
    providerCode: 'server_is_overloaded',
    message: 'synthetic overload',
  },
  streamErrorHeaders: JSON_HEADERS,
};

const GEMINI_ERRORS: Readonly<Record<HttpFaultKind, readonly [number, string]>> = {
  invalid_request: [400, 'INVALID_ARGUMENT'],
  // Gemini answers a bad key with 400 INVALID_ARGUMENT; only ErrorInfo.reason says what it is.
  authentication: [400, 'INVALID_ARGUMENT'],
  permission: [403, 'PERMISSION_DENIED'],
  not_found: [404, 'NOT_FOUND'],
  rate_limited: [429, 'RESOURCE_EXHAUSTED'],
  server_error: [500, 'INTERNAL'],
  overloaded: [503, 'UNAVAILABLE'],
};

const geminiFaultWire: FaultWire = {
  protocol: 'gemini',
  httpError(kind, status, retryAfterSeconds) {
    const [usual, code] = GEMINI_ERRORS[kind];
    const message = `synthetic ${kind} fault`;
    const details: unknown[] = [];
    if (kind === 'authentication') {
      details.push({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
      });
    }
    if (retryAfterSeconds !== undefined) {
      details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` });
    }
    const body = JSON.stringify({
      error: { code: status ?? usual, message, status: code, ...(details.length > 0 ? { details } : {}) },
    });
    return { status: status ?? usual, body, providerCode: code, message };
  },
  streamHeaders: SSE_HEADERS,
  completeBody: JSON.stringify({
    candidates: [
      {
        content: { role: 'model', parts: [{ functionCall: { name: 'lister_dossiers', args: { filtre: 'ouverts' } } }] },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'synthetic-response',
  }),
  streamWithoutEnd: sse([
    [
      undefined,
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Half an ans' }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'synthetic-response',
      },
    ],
    [
      undefined,
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'lister_dossiers', args: { filtre: 'ouverts' } } }],
            },
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'synthetic-response',
      },
    ],
  ]),
  streamErrorEvent: {
    body: sse([[undefined, { error: { code: 503, message: 'synthetic overload', status: 'UNAVAILABLE' } }]]),
    providerCode: 'UNAVAILABLE',
    message: 'synthetic overload',
  },
  // The live API answers a failed streamed request with its JSON error under `text/event-stream`.
  streamErrorHeaders: SSE_HEADERS,
};

export const FAULT_WIRES: Readonly<Record<CassetteProtocol, FaultWire>> = {
  'anthropic-messages': anthropicFaultWire,
  'openai-chat': openaiChatFaultWire,
  'openai-responses': openaiResponsesFaultWire,
  gemini: geminiFaultWire,
};
