import type { ModelRequest, ProviderError, StreamEvent } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isEventStream,
  streamInterruptedError,
} from '@toolcircuit/core/provider';
import type { OpenAI } from 'openai';
import type {
  Response,
  ResponseCreateParamsStreaming,
  ResponseOutputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { mapOpenAIResponsesError, mapOpenAIResponsesStreamFailure } from './map-openai-responses-error.js';
import { sdkRequestOptions } from './openai-shared-request-options.js';
import { mapOpenAIStreamReadError } from './openai-shared-stream-interrupted.js';
import { toToolCallPart, uniqueCallId } from './openai-shared-tool-calls.js';
import type { OpenAIParseContext } from './openai-shared-turn.js';
import { buildOpenAIResponsesTurn, responsesSnapshot } from './parse-openai-responses-response.js';

export interface OpenAIResponsesStreamInput {
  readonly client: OpenAI;
  readonly body: ResponseCreateParamsStreaming;
  readonly request: ModelRequest;
  readonly context: OpenAIParseContext;
}

/**
 * Responses stream → neutral events: `output_item.added` (function_call) starts a call,
 * `function_call_arguments.delta` grows it, `output_item.done` ends it; `response.completed` /
 * `response.incomplete` carry the final response, from which `turn-end` is built by the same code as
 * generate() (`incomplete` with `max_output_tokens` lists the unfinished calls as incomplete).
 * `error` / `response.failed` end the stream with an `error` event. A stream that stops before the final
 * event never finished its turn: it ends with a retryable `connection` error counting the calls that had
 * not reached `output_item.done` (calls that did were already ended and keep their `tool-call-end`).
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* streamOpenAIResponses(input: OpenAIResponsesStreamInput): AsyncGenerator<StreamEvent> {
  const { client, body, request, context } = input;
  const state = new ResponsesStreamState(context);
  let stream: AsyncIterable<ResponseStreamEvent>;
  try {
    const answer = await client.responses.create(body, sdkRequestOptions(request, client, body)).withResponse();
    stream = answer.data;
    const contentType = answer.response.headers.get('content-type');
    if (!isEventStream(contentType)) {
      yield { type: 'error', error: invalidResponseError(context.provider, { contentType }) };
      return;
    }
  } catch (error) {
    yield { type: 'error', error: mapOpenAIResponsesError(error, context.provider) };
    return;
  }
  try {
    for await (const event of stream) {
      yield* state.push(event);
      if (state.failure !== undefined) break;
    }
  } catch (error) {
    const mapped = mapOpenAIStreamReadError(error, context.provider, state.incompleteCallCount(), request.signal);
    yield { type: 'error', error: mapped };
    return;
  }
  if (state.failure !== undefined) {
    yield { type: 'error', error: state.failure };
    return;
  }
  // The SDK ends the iteration quietly when the request is aborted mid-stream.
  if (request.signal?.aborted) {
    yield { type: 'error', error: abortedProviderError(context.provider, 'stream') };
    return;
  }
  yield state.finish();
}

interface ItemInProgress {
  item: ResponseOutputItem;
  done: boolean;
  /** Argument text (function calls) or output text (messages) received so far. */
  text: string;
  /** Neutral call id, for function calls. */
  callId?: string;
}

class ResponsesStreamState {
  failure: ProviderError | undefined;
  private readonly items = new Map<number, ItemInProgress>();
  private readonly seenIds = new Set<string>();
  private callCount = 0;
  private final: Response | undefined;

  constructor(private readonly context: OpenAIParseContext) {}

  *push(event: ResponseStreamEvent): Generator<StreamEvent> {
    switch (event.type) {
      case 'response.output_item.added': {
        const entry: ItemInProgress = { item: event.item, done: false, text: '' };
        this.items.set(event.output_index, entry);
        if (event.item.type === 'function_call') {
          entry.text = event.item.arguments;
          entry.callId = uniqueCallId(event.item.call_id, this.callCount, this.seenIds);
          yield {
            type: 'tool-call-start',
            id: entry.callId,
            name: this.context.fromProviderName(event.item.name),
            index: this.callCount,
          };
          this.callCount += 1;
        }
        break;
      }
      case 'response.function_call_arguments.delta': {
        const entry = this.items.get(event.output_index);
        if (entry?.callId === undefined) break;
        entry.text += event.delta;
        yield { type: 'tool-call-delta', id: entry.callId, argumentsDelta: event.delta };
        break;
      }
      case 'response.function_call_arguments.done': {
        const entry = this.items.get(event.output_index);
        if (entry !== undefined) entry.text = event.arguments;
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const entry = this.items.get(event.output_index);
        if (entry !== undefined) entry.text += event.delta;
        yield { type: 'text-delta', text: event.delta };
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        yield { type: 'reasoning-delta', text: event.delta };
        break;
      case 'response.output_item.done': {
        const entry = this.items.get(event.output_index);
        const callId = entry?.callId;
        this.items.set(event.output_index, { item: event.item, done: true, text: '', ...(callId ? { callId } : {}) });
        const item = event.item;
        if (item.type === 'function_call' && callId !== undefined && item.status !== 'incomplete') {
          const part = toToolCallPart(
            { id: callId, providerName: item.name, arguments: item.arguments, cutOff: false },
            this.context,
          );
          yield {
            type: 'tool-call-end',
            id: part.id,
            name: part.name,
            input: part.input,
            ...(part.inputError === undefined ? {} : { inputError: part.inputError }),
          };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        this.final = event.response;
        break;
      case 'response.failed':
      case 'error':
        this.failure = mapOpenAIResponsesStreamFailure(event, this.context.provider);
        break;
      default:
        break;
    }
  }

  /** The final event: `turn-end` once the provider finished the turn (possibly truncated), else `error`. */
  finish(): StreamEvent {
    if (this.final === undefined) {
      const reason = 'no response.completed or response.incomplete';
      const error = streamInterruptedError(this.context.provider, reason, this.incompleteCallCount());
      return { type: 'error', error };
    }
    const snapshot = responsesSnapshot(this.final);
    // Some servers send a final response without its output; the items assembled from events stand in.
    const output = snapshot.output.length > 0 ? snapshot.output : this.assembledOutput();
    const { turn, incompleteToolCallIds } = buildOpenAIResponsesTurn({ ...snapshot, output }, this.context);
    return { type: 'turn-end', turn, incompleteToolCallIds };
  }

  /** Calls that never got their `tool-call-end`: still streaming, or done without being `completed`. */
  incompleteCallCount(): number {
    return [...this.items.values()].filter(
      (entry) =>
        entry.callId !== undefined &&
        !(entry.done && entry.item.type === 'function_call' && entry.item.status !== 'incomplete'),
    ).length;
  }

  /** Items in output order, for a final response sent without its output; an unfinished item keeps what arrived. */
  private assembledOutput(): ResponseOutputItem[] {
    return [...this.items.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, entry]): ResponseOutputItem[] => {
        if (entry.done) return [entry.item];
        const item = entry.item;
        if (item.type === 'function_call') return [{ ...item, arguments: entry.text, status: 'in_progress' }];
        if (item.type === 'message' && entry.text !== '') {
          return [{ ...item, content: [{ type: 'output_text', text: entry.text, annotations: [] }] }];
        }
        // An unfinished reasoning item lacks its encrypted content and could not be sent back.
        return [];
      });
  }
}
