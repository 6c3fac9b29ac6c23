import type { JsonValue, ModelRequest, StreamEvent } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isEventStream,
  streamInterruptedError,
} from '@toolcircuit/core/provider';
import type { OpenAI } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { mapOpenAIChatError } from './map-openai-chat-error.js';
import { sdkRequestOptions } from './openai-shared-request-options.js';
import { mapOpenAIStreamReadError } from './openai-shared-stream-interrupted.js';
import { toolCallEndEvent, uniqueCallId } from './openai-shared-tool-calls.js';
import type { OpenAIParseContext } from './openai-shared-turn.js';
import { buildOpenAIChatTurn, chatResponseMetadata, extraFieldsOf } from './parse-openai-chat-response.js';

export interface OpenAIChatStreamInput {
  readonly client: OpenAI;
  readonly body: ChatCompletionCreateParamsStreaming;
  readonly request: ModelRequest;
  readonly context: OpenAIParseContext;
}

/**
 * Chat Completions stream → neutral events. Each `delta.tool_calls[]` entry names its call by `index`; id and
 * name come only in the first delta of an index, argument text in every one. Calls end only when the turn
 * does (there is no per-call end event), so `tool-call-end` events are emitted after the finish reason,
 * followed by one `turn-end` built by the same code as generate() (`length` lists the last call as
 * incomplete). A stream that stops before a finish reason never finished its turn: it ends with a
 * retryable `connection` error counting its calls as incomplete (none of them can be trusted, and none got
 * a `tool-call-end`). An error thrown by the SDK (an error object in the stream, a dropped connection, an
 * abort) gives one `error` event too.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export async function* streamOpenAIChat(input: OpenAIChatStreamInput): AsyncGenerator<StreamEvent> {
  const { client, body, request, context } = input;
  const state = new ChatStreamState(context);
  let stream: AsyncIterable<ChatCompletionChunk>;
  try {
    const answer = await client.chat.completions.create(body, sdkRequestOptions(request, client, body)).withResponse();
    stream = answer.data;
    const contentType = answer.response.headers.get('content-type');
    if (!isEventStream(contentType)) {
      yield { type: 'error', error: invalidResponseError(context.provider, { contentType }) };
      return;
    }
  } catch (error) {
    yield { type: 'error', error: mapOpenAIChatError(error, context.provider) };
    return;
  }
  try {
    for await (const chunk of stream) yield* state.push(chunk);
  } catch (error) {
    const mapped = mapOpenAIStreamReadError(error, context.provider, state.incompleteCallCount(), request.signal);
    yield { type: 'error', error: mapped };
    return;
  }
  // The SDK ends the iteration quietly when the request is aborted mid-stream.
  if (request.signal?.aborted) {
    yield { type: 'error', error: abortedProviderError(context.provider, 'stream') };
    return;
  }
  yield* state.finish();
}

interface CallInProgress {
  readonly id: string;
  readonly name: string;
  arguments: string;
  /** `custom` for a custom tool call (its text streams in `custom.input`), another type for one nobody answers. */
  readonly type?: string;
}

/** A streamed tool call fragment as it may come: the SDK's type knows only `function`. */
interface CallFragment {
  readonly index: number;
  readonly id?: string;
  readonly type?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
  readonly custom?: { readonly name?: string; readonly input?: string };
}

/** Reasoning text some compatible servers stream in the delta, under one of these names. */
const REASONING_FIELDS: readonly string[] = ['reasoning_content', 'reasoning'];

class ChatStreamState {
  private readonly calls = new Map<number, CallInProgress>();
  private readonly seenIds = new Set<string>();
  private content = '';
  private refusal = '';
  private readonly annotations: JsonValue[] = [];
  /** Delta fields this adapter does not read, gathered: text appended, lists concatenated, others replaced. */
  private readonly extras: Record<string, JsonValue> = {};
  private finishReason: string | null = null;
  private usage: CompletionUsage | null | undefined;
  private first: ChatCompletionChunk | undefined;

  constructor(private readonly context: OpenAIParseContext) {}

  *push(chunk: ChatCompletionChunk): Generator<StreamEvent> {
    this.first ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices.find((candidate) => candidate.index === 0);
    if (choice === undefined) return;
    const delta = choice.delta;
    if (delta.content) {
      this.content += delta.content;
      yield { type: 'text-delta', text: delta.content };
    }
    if (delta.refusal) {
      this.refusal += delta.refusal;
      yield { type: 'text-delta', text: delta.refusal };
    }
    for (const [field, value] of Object.entries(extraFieldsOf(delta))) {
      if (field === 'tool_calls') continue;
      const previous = this.extras[field];
      if (typeof value === 'string') {
        this.extras[field] = typeof previous === 'string' ? previous + value : value;
        if (REASONING_FIELDS.includes(field)) yield { type: 'reasoning-delta', text: value };
      } else {
        this.extras[field] = Array.isArray(value) && Array.isArray(previous) ? [...previous, ...value] : value;
      }
    }
    const annotations = (delta as { annotations?: unknown }).annotations;
    if (Array.isArray(annotations)) this.annotations.push(...(annotations as JsonValue[]));
    for (const fragment of (delta.tool_calls ?? []) as readonly CallFragment[]) {
      let call = this.calls.get(fragment.index);
      if (call === undefined) {
        const type = fragment.type !== undefined && fragment.type !== 'function' ? fragment.type : undefined;
        call = {
          id: uniqueCallId(fragment.id, fragment.index, this.seenIds),
          name: fragment.function?.name ?? fragment.custom?.name ?? '',
          arguments: '',
          ...(type === undefined ? {} : { type }),
        };
        this.calls.set(fragment.index, call);
        // A call of a type nobody answers is never announced: the turn ends with `unsupported_call`.
        if (type !== undefined && type !== 'custom') continue;
        yield {
          type: 'tool-call-start',
          id: call.id,
          name: this.context.fromProviderName(call.name),
          index: fragment.index,
        };
      }
      const argumentsDelta = fragment.function?.arguments ?? fragment.custom?.input;
      if (argumentsDelta) {
        call.arguments += argumentsDelta;
        yield { type: 'tool-call-delta', id: call.id, argumentsDelta };
      }
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** Every call streamed so far: Chat never says a call is complete before the finish reason. */
  incompleteCallCount(): number {
    return this.calls.size;
  }

  /** The final events: the calls' `tool-call-end`s and `turn-end`, or `error` when no finish reason came. */
  *finish(): Generator<StreamEvent> {
    // The finish reason is the provider saying the turn is over; `[DONE]` is not visible through the SDK.
    if (this.finishReason === null) {
      const error = streamInterruptedError(this.context.provider, 'no finish_reason', this.incompleteCallCount());
      yield { type: 'error', error };
      return;
    }
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    let parsed: ReturnType<typeof buildOpenAIChatTurn>;
    try {
      parsed = buildOpenAIChatTurn(
        {
          content: this.content === '' ? null : this.content,
          refusal: this.refusal === '' ? null : this.refusal,
          toolCalls: ordered,
          annotations: this.annotations,
          extras: this.extras,
          finishReason: this.finishReason,
          usage: this.usage,
          metadata: this.first === undefined ? {} : chatResponseMetadata(this.first),
        },
        this.context,
      );
    } catch (error) {
      // A call of a type nobody can answer (`unsupported_call`): the turn goes with the error.
      yield { type: 'error', error: error as Error };
      return;
    }
    const { turn, incompleteToolCallIds } = parsed;
    for (const part of turn.content) {
      if (part.type === 'text') {
        for (const source of part.sources ?? []) yield { type: 'source', source };
        continue;
      }
      if (part.type === 'provider') {
        yield { type: 'provider-part', part };
        continue;
      }
      if (part.type !== 'tool_call' || incompleteToolCallIds.includes(part.id)) continue;
      yield toolCallEndEvent(part);
    }
    yield { type: 'turn-end', turn, incompleteToolCallIds };
  }
}
