import type { MessageDeltaUsage, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type {
  AssistantContentPart,
  JsonObject,
  JsonValue,
  ModelTurn,
  StreamEvent,
  ToolCallPart,
} from '@toolcircuit/core';
import { sourceOfCitation } from './anthropic-citations.js';
import { neutralToolName } from './anthropic-prepare-tools.js';
import type { AnthropicToolNames } from './anthropic-tool-names.js';
import {
  assembleAnthropicTurn,
  CUT_OFF_INPUT_ERROR,
  callOf,
  contextManagementOf,
  cutOffCall,
  isServerBlock,
  parseAnthropicBlock,
  type ServerBlock,
  unknownBlockPart,
} from './parse-anthropic-response.js';

/**
 * `inputError` of a call whose stream was cut (no stop reason, no error event) before the call was complete.
 * Only seen by direct users of {@link AnthropicStreamAssembler}: `stream()` ends such a stream with an
 * `error` event, not a turn.
 */
export const INTERRUPTED_INPUT_ERROR = 'the stream ended before the tool call was complete; it was not run';

type Block =
  | { readonly kind: 'text'; text: string; readonly citations: JsonValue[] }
  | { readonly kind: 'thinking'; text: string; signature: string }
  | { readonly kind: 'redacted'; readonly data: string }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly name: string;
      readonly providerName: string;
      readonly startInput: unknown;
      readonly caller: unknown;
      json: string;
      /** `open` until content_block_stop; `invalid` when it stopped with arguments that are not JSON. */
      state: 'open' | 'done' | 'invalid';
      part?: ToolCallPart;
    }
  | { readonly kind: 'other'; readonly block: JsonObject; json: string };

/** The end of a stream: the turn, the calls that never completed, and `tool-call-end`s that had to wait. */
export interface AssembledAnthropicStream {
  readonly turn: ModelTurn;
  readonly incompleteToolCallIds: readonly string[];
  readonly lateEvents: readonly StreamEvent[];
  /** The type of a block that asks the client to act and that nothing can answer (an unknown `*_use`). */
  readonly unsupported?: string;
}

/**
 * Turns raw Messages API stream events into neutral events and, at the end, the same turn generate() would
 * give. Tool arguments are the concatenation of every `input_json_delta`, parsed once at content_block_stop.
 * A call is complete only when its block stopped with valid JSON; a call still open when the stream ends
 * (max_tokens, a cut stream) is kept in the turn with `inputError` and listed in `incompleteToolCallIds`.
 */
export class AnthropicStreamAssembler {
  readonly #names: AnthropicToolNames;
  readonly #blocks = new Map<number, Block>();
  #toolCount = 0;
  #id = '';
  #model = '';
  #stopReason: string | null = null;
  #stopSequence: string | null = null;
  #usage: MessageDeltaUsage | undefined;
  #container: string | undefined;
  #contextManagement: JsonObject | undefined;
  #stopDetails: JsonObject | undefined;
  #stopped = false;

  constructor(names: AnthropicToolNames) {
    this.#names = names;
  }

  /**
   * Whether the turn ended: `message_stop` arrived, or `message_delta` gave the stop reason (it follows the
   * last content block; recorded bodies exist whose final `message_stop` lacks the blank line that would
   * dispatch it, which the SDK rightly drops). Without either, the stream was cut.
   */
  get complete(): boolean {
    return this.#stopped || this.#stopReason !== null;
  }

  push(event: RawMessageStreamEvent): StreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        this.#id = event.message.id;
        this.#model = event.message.model;
        this.#container = event.message.container?.id ?? undefined;
        this.#usage = {
          ...event.message.usage,
          output_tokens_details: event.message.usage.output_tokens_details ?? null,
        };
        return [];
      }
      case 'content_block_start':
        return this.#start(event.index, event.content_block);
      case 'content_block_delta':
        return this.#delta(event.index, event.delta);
      case 'content_block_stop':
        return this.#stop(event.index);
      case 'message_delta': {
        this.#stopReason = event.delta.stop_reason ?? this.#stopReason;
        this.#stopSequence = event.delta.stop_sequence ?? this.#stopSequence;
        this.#container = event.delta.container?.id ?? this.#container;
        this.#contextManagement = contextManagementOf(event) ?? this.#contextManagement;
        const details = (event.delta as unknown as { stop_details?: unknown }).stop_details;
        if (typeof details === 'object' && details !== null) this.#stopDetails = details as JsonObject;
        this.#usage = mergeUsage(this.#usage, event.usage);
        return [];
      }
      case 'message_stop':
        this.#stopped = true;
        return [];
      default:
        return [];
    }
  }

  #start(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): StreamEvent[] {
    switch (block.type) {
      case 'text': {
        const citations = [...((block.citations ?? []) as unknown as JsonValue[])];
        this.#blocks.set(index, { kind: 'text', text: block.text, citations });
        return [
          ...(block.text === '' ? [] : [{ type: 'text-delta', text: block.text } as const]),
          ...sourceEvents(citations),
        ];
      }
      case 'thinking':
        this.#blocks.set(index, { kind: 'thinking', text: block.thinking, signature: block.signature ?? '' });
        return block.thinking === '' ? [] : [{ type: 'reasoning-delta', text: block.thinking }];
      case 'redacted_thinking':
        this.#blocks.set(index, { kind: 'redacted', data: block.data });
        return [];
      case 'tool_use': {
        const name = neutralToolName(this.#names, block.name);
        const callIndex = this.#toolCount++;
        this.#blocks.set(index, {
          kind: 'tool',
          id: block.id,
          name,
          providerName: block.name,
          startInput: block.input,
          caller: block.caller,
          json: '',
          state: 'open',
        });
        return [{ type: 'tool-call-start', id: block.id, name, index: callIndex }];
      }
      default:
        // Server-tool blocks are kept whole (their input streamed like a tool's) to be sent back unchanged.
        this.#blocks.set(index, { kind: 'other', block: { ...(block as unknown as JsonObject) }, json: '' });
        return [];
    }
  }

  #delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): StreamEvent[] {
    const block = this.#blocks.get(index);
    if (block === undefined) return [];
    if (delta.type === 'text_delta' && block.kind === 'text') {
      block.text += delta.text;
      return delta.text === '' ? [] : [{ type: 'text-delta', text: delta.text }];
    }
    if (delta.type === 'citations_delta' && block.kind === 'text') {
      const citation = delta.citation as unknown as JsonValue;
      block.citations.push(citation);
      return sourceEvents([citation]);
    }
    if (delta.type === 'thinking_delta' && block.kind === 'thinking') {
      block.text += delta.thinking;
      return delta.thinking === '' ? [] : [{ type: 'reasoning-delta', text: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && block.kind === 'thinking') {
      block.signature += delta.signature;
      return [];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'other') {
      block.json += delta.partial_json;
      return [];
    }
    if (block.kind === 'other') {
      mergeDelta(block.block, delta as unknown as JsonObject);
      return [];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool' && block.state === 'open') {
      block.json += delta.partial_json;
      return delta.partial_json === ''
        ? []
        : [{ type: 'tool-call-delta', id: block.id, argumentsDelta: delta.partial_json }];
    }
    return [];
  }

  #stop(index: number): StreamEvent[] {
    const block = this.#blocks.get(index);
    if (block?.kind === 'other' && !isServerBlock(String(block.block['type']))) {
      // A block this adapter does not read: said on the stream once it is whole.
      return [{ type: 'provider-part', part: unknownBlockPart(serverBlock(block)).part }];
    }
    if (block?.kind !== 'tool' || block.state !== 'open') return [];
    const parsed = parseArguments(block.json, block.startInput);
    if (!parsed.ok) {
      // Held back: whether this is a cut-off call or a malformed one is known only from the stop reason.
      block.state = 'invalid';
      return [];
    }
    block.state = 'done';
    block.part = callOf(this.#names, block.id, block.providerName, parsed.value, block.caller);
    return [endEvent(block.part)];
  }

  /**
   * Builds the turn once the SDK stream has ended (with or without `message_stop`). When the stream was cut
   * (`complete` false) the turn has stop reason `error`; `stream()` then uses only its incomplete count.
   */
  finish(): AssembledAnthropicStream {
    const complete = this.complete;
    const cutOff = !complete || this.#stopReason === 'max_tokens';
    const cutOffError = complete ? CUT_OFF_INPUT_ERROR : INTERRUPTED_INPUT_ERROR;
    const content: AssistantContentPart[] = [];
    const incompleteToolCallIds: string[] = [];
    const lateEvents: StreamEvent[] = [];
    const serverBlocks: ServerBlock[] = [];
    let unsupported: string | undefined;
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const block = this.#blocks.get(index);
      if (block?.kind === 'other') {
        const whole = serverBlock(block);
        if (isServerBlock(String(whole['type']))) {
          serverBlocks.push({ before: content.length, block: whole });
        } else {
          const unknown = unknownBlockPart(whole);
          content.push(unknown.part);
          if (unknown.requestsAction) unsupported ??= unknown.part.kind;
        }
        continue;
      }
      const part = block === undefined ? undefined : this.#part(block);
      if (part === undefined) continue;
      if (block?.kind === 'tool' && block.state !== 'done') {
        if (block.state === 'open' || cutOff) {
          incompleteToolCallIds.push(block.id);
          content.push(cutOffCall(part as ToolCallPart, block.json, cutOffError));
          continue;
        }
        const malformed: ToolCallPart = {
          ...(part as ToolCallPart),
          input: undefined,
          rawInput: block.json,
          inputError: 'tool arguments are not valid JSON',
        };
        lateEvents.push(endEvent(malformed));
        content.push(malformed);
        continue;
      }
      content.push(part);
    }
    const turn = assembleAnthropicTurn(
      content,
      {
        id: this.#id,
        model: this.#model,
        stop_reason: this.#stopReason,
        stop_sequence: this.#stopSequence,
        usage: this.#usage,
        container: this.#container,
        serverBlocks,
        contextManagement: this.#contextManagement,
        ...(this.#stopDetails === undefined ? {} : { stopDetails: this.#stopDetails }),
      },
      this.#names,
    );
    const found = unsupported === undefined ? {} : { unsupported };
    if (complete) return { turn, incompleteToolCallIds, lateEvents, ...found };
    // Cut before the stop reason: the turn did not end normally.
    return {
      turn: { ...turn, stopReason: { unified: 'error', raw: this.#stopReason ?? undefined } },
      incompleteToolCallIds,
      lateEvents,
      ...found,
    };
  }

  #part(block: Block): AssistantContentPart | undefined {
    switch (block.kind) {
      case 'text':
        return parseAnthropicBlock(
          { type: 'text', text: block.text, citations: block.citations as never },
          this.#names,
        );
      case 'thinking':
        return parseAnthropicBlock({ type: 'thinking', thinking: block.text, signature: block.signature }, this.#names);
      case 'redacted':
        return parseAnthropicBlock({ type: 'redacted_thinking', data: block.data }, this.#names);
      case 'tool':
        return block.part ?? { type: 'tool_call', id: block.id, name: block.name, input: undefined };
      case 'other':
        return undefined;
    }
  }
}

function serverBlock(block: Extract<Block, { kind: 'other' }>): JsonObject {
  if (block.json.trim() === '') return block.block;
  try {
    return { ...block.block, input: JSON.parse(block.json) as JsonObject };
  } catch {
    return block.block;
  }
}

/** A `source` event per citation this adapter can read. */
function sourceEvents(citations: readonly JsonValue[]): StreamEvent[] {
  return citations.flatMap((citation) => {
    const source = sourceOfCitation(citation);
    return source === undefined ? [] : [{ type: 'source' as const, source }];
  });
}

/**
 * A delta of a type this adapter does not know, on a block it keeps whole: its text fields are appended to the
 * block's fields of the same name (as text, thinking and signature deltas are), others set where absent.
 */
function mergeDelta(block: JsonObject, delta: JsonObject): void {
  for (const [key, value] of Object.entries(delta)) {
    if (key === 'type') continue;
    const current = block[key];
    if (typeof value === 'string' && typeof current === 'string') block[key] = current + value;
    else if (current === undefined || current === null) block[key] = value;
  }
}

function endEvent(part: ToolCallPart): StreamEvent {
  return part.inputError === undefined
    ? { type: 'tool-call-end', id: part.id, name: part.name, input: part.input }
    : { type: 'tool-call-end', id: part.id, name: part.name, input: part.input, inputError: part.inputError };
}

// No delta at all (a no-argument tool sends only "") means the start block's input, normally {}.
function parseArguments(json: string, startInput: unknown): { ok: true; value: unknown } | { ok: false } {
  if (json.trim() === '') return { ok: true, value: startInput ?? {} };
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false };
  }
}

// message_delta usage is cumulative; its null fields mean "unchanged", not zero.
function mergeUsage(start: MessageDeltaUsage | undefined, delta: MessageDeltaUsage): MessageDeltaUsage {
  return {
    input_tokens: delta.input_tokens ?? start?.input_tokens ?? null,
    output_tokens: delta.output_tokens,
    cache_creation_input_tokens: delta.cache_creation_input_tokens ?? start?.cache_creation_input_tokens ?? null,
    cache_read_input_tokens: delta.cache_read_input_tokens ?? start?.cache_read_input_tokens ?? null,
    output_tokens_details: delta.output_tokens_details ?? start?.output_tokens_details ?? null,
    server_tool_use: delta.server_tool_use ?? start?.server_tool_use ?? null,
  };
}
