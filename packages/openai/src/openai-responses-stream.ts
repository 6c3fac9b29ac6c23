import type { JsonValue, ModelRequest, ProviderError, StreamEvent } from '@toolcircuit/core';
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
import { builtinCallPart, customToolCallPart, itemRole } from './openai-responses-items.js';
import { asJsonObject } from './openai-shared-provider-options.js';
import { sdkRequestOptions } from './openai-shared-request-options.js';
import { sourcesOfAnnotations } from './openai-shared-sources.js';
import { mapOpenAIStreamReadError } from './openai-shared-stream-interrupted.js';
import { toolCallEndEvent, toToolCallPart, uniqueCallId } from './openai-shared-tool-calls.js';
import type { OpenAIParseContext } from './openai-shared-turn.js';
import { buildOpenAIResponsesTurn, responsesSnapshot } from './parse-openai-responses-response.js';

export interface OpenAIResponsesStreamInput {
  readonly client: OpenAI;
  readonly body: ResponseCreateParamsStreaming;
  readonly request: ModelRequest;
  readonly context: OpenAIParseContext;
}

/**
 * Responses stream → neutral events: `output_item.added` (a function, custom tool or built-in type's call)
 * starts a call, `function_call_arguments.delta` / `custom_tool_call_input.delta` grow it, `output_item.done`
 * ends it (a message's annotations become `source` events then, an item of an unknown type a `provider-part`
 * event); `response.completed` /
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

const NOTHING_ANSWERED: ReadonlySet<string> = new Set();

/** A call item the provider did not finish (cut by the output limit): it gets no `tool-call-end`. */
function cutOffItem(item: ResponseOutputItem): boolean {
  const status = (item as unknown as { status?: unknown }).status;
  return status === 'incomplete' || status === 'in_progress';
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
        const name = this.callName(event.item);
        if (name !== undefined) {
          const item = event.item as unknown as { call_id?: string; arguments?: string; input?: string };
          entry.text = item.arguments ?? item.input ?? '';
          entry.callId = uniqueCallId(item.call_id, this.callCount, this.seenIds);
          yield { type: 'tool-call-start', id: entry.callId, name, index: this.callCount };
          this.callCount += 1;
        }
        break;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
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
        yield* this.itemDone(event.item, callId);
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
    try {
      const { turn, incompleteToolCallIds } = buildOpenAIResponsesTurn({ ...snapshot, output }, this.context);
      return { type: 'turn-end', turn, incompleteToolCallIds };
    } catch (error) {
      // A request to act nobody can answer (`unsupported_call`): the turn goes with the error.
      return { type: 'error', error: error as ProviderError };
    }
  }

  /** Calls that never got their `tool-call-end`: still streaming, or done without being complete. */
  incompleteCallCount(): number {
    return [...this.items.values()].filter(
      (entry) => entry.callId !== undefined && !(entry.done && !cutOffItem(entry.item)),
    ).length;
  }

  /** The catalogue name of the call an item starts, or `undefined` when the item is not a call to answer. */
  private callName(item: ResponseOutputItem): string | undefined {
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      return this.context.fromProviderName(item.name);
    }
    const role = itemRole(item, NOTHING_ANSWERED);
    return role.role === 'builtin-call' ? (this.context.builtinTool(role.kind) ?? role.kind) : undefined;
  }

  /** What a finished item says on the stream: a call's end, a message's sources, an unknown item. */
  private *itemDone(item: ResponseOutputItem, callId: string | undefined): Generator<StreamEvent> {
    const context = this.context;
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        const annotations = (part.annotations ?? []) as unknown as JsonValue[];
        for (const source of sourcesOfAnnotations(part.text, annotations)) yield { type: 'source', source };
      }
      return;
    }
    if (item.type === 'reasoning') return;
    const role =
      item.type === 'function_call' || item.type === 'custom_tool_call' ? undefined : itemRole(item, NOTHING_ANSWERED);
    if (role?.role === 'unknown' || role?.role === 'unsupported-call') {
      yield {
        type: 'provider-part',
        part: { type: 'provider', provider: context.provider, kind: item.type, data: asJsonObject(item) },
      };
      return;
    }
    if (callId === undefined || cutOffItem(item)) return;
    const part =
      item.type === 'function_call'
        ? toToolCallPart({ id: callId, providerName: item.name, arguments: item.arguments, cutOff: false }, context)
        : item.type === 'custom_tool_call'
          ? customToolCallPart(item, callId, context, false)
          : role?.role === 'builtin-call'
            ? builtinCallPart(item, role, callId, context, false)
            : undefined;
    if (part === undefined) return;
    yield toolCallEndEvent(part);
  }

  /** Items in output order, for a final response sent without its output; an unfinished item keeps what arrived. */
  private assembledOutput(): ResponseOutputItem[] {
    return [...this.items.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, entry]): ResponseOutputItem[] => {
        if (entry.done) return [entry.item];
        const item = entry.item;
        if (item.type === 'function_call') return [{ ...item, arguments: entry.text, status: 'in_progress' }];
        if (item.type === 'custom_tool_call') {
          return [{ ...item, input: entry.text, status: 'in_progress' } as ResponseOutputItem];
        }
        if (item.type === 'message' && entry.text !== '') {
          return [{ ...item, content: [{ type: 'output_text', text: entry.text, annotations: [] }] }];
        }
        // An unfinished reasoning item lacks its encrypted content and could not be sent back.
        return [];
      });
  }
}
