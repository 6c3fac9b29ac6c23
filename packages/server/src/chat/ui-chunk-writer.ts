import { type LoopStreamEvent, type ToolCallPart, toolResultText } from '@toolcircuit/core';

/** One chunk of the AI SDK's UI message stream protocol (v1), as JSON. */
export type UiChunk = { readonly type: string } & Record<string, unknown>;

/**
 * Turns the loop's events into UI message stream chunks, keeping what the protocol needs across events:
 * the text or reasoning part that is open (each has a start, deltas and an end), and the calls whose input
 * has started. Turns are steps (`start-step`/`finish-step`); a retried model request resets its step
 * (`reset-step`), since its deltas are void. Tools are `dynamic`: the page learns them from the stream, not
 * from types compiled into it. A call held for its human gets its `tool-approval-request` from the chat
 * route once the run is stored paused (the request needs the stored untrusted sources' excerpts).
 */
export class UiChunkWriter {
  #open: { readonly kind: 'text' | 'reasoning'; readonly id: string } | undefined;
  #parts = 0;
  /** The calls whose part the page has: started in this stream, or (for a continuation) in the message it continues. */
  readonly #started: Set<string>;
  /** The calls whose input is complete: a later start, delta or end of the same id is a repeat. */
  readonly #ended: Set<string>;
  /** The calls of the current step: forgotten when a retry voids the step. */
  #step = new Set<string>();

  constructor(known: Iterable<string> = []) {
    this.#started = new Set(known);
    this.#ended = new Set(known);
  }

  of(event: LoopStreamEvent): UiChunk[] {
    switch (event.type) {
      case 'turn-start':
        this.#step = new Set();
        return [{ type: 'start-step' }];
      case 'text-delta':
        return [...this.#into('text', event.turn), { type: 'text-delta', id: this.#id(), delta: event.text }];
      case 'reasoning-delta':
        return [...this.#into('reasoning', event.turn), { type: 'reasoning-delta', id: this.#id(), delta: event.text }];
      case 'tool-call-start':
        // A model that repeats an id: the page has a part of that id already, which the repeat would
        // overwrite with other arguments. The loop refuses the repeat under a new id (its part comes then).
        if (this.#started.has(event.id)) return [];
        this.#begin(event.id);
        return [
          ...this.#close(),
          { type: 'tool-input-start', toolCallId: event.id, toolName: event.name, dynamic: true },
        ];
      case 'tool-call-delta':
        if (this.#ended.has(event.id)) return [];
        return [{ type: 'tool-input-delta', toolCallId: event.id, inputTextDelta: event.argumentsDelta }];
      case 'tool-call-end': {
        if (this.#ended.has(event.id)) return [];
        // A model that does not stream its calls gives only the end: the part starts here.
        const start = this.#started.has(event.id)
          ? []
          : [{ type: 'tool-input-start', toolCallId: event.id, toolName: event.name, dynamic: true }];
        this.#begin(event.id);
        this.#ended.add(event.id);
        const call = { toolCallId: event.id, toolName: event.name, input: event.input ?? {}, dynamic: true };
        return [
          ...this.#close(),
          ...start,
          event.inputError === undefined
            ? { type: 'tool-input-available', ...call }
            : { type: 'tool-input-error', ...call, errorText: event.inputError },
        ];
      }
      case 'turn-end':
        return [...this.#close(), { type: 'finish-step' }];
      case 'retry':
        // The failed attempt's deltas and calls are void: the page drops its step's parts.
        this.#open = undefined;
        for (const id of this.#step) {
          this.#started.delete(id);
          this.#ended.delete(id);
        }
        this.#step = new Set();
        return [{ type: 'reset-step' }];
      case 'call-verdict':
        return [...this.#close(), ...this.#unseen(event.call), ...verdictChunks(event)];
      case 'error':
        return [...this.#close(), { type: 'error', errorText: `${event.error.name}: ${event.error.message}` }];
      default:
        // tool-result (the verdict carries it), reply, sources, provider parts, output-partial, loop-end.
        return [];
    }
  }

  /** Ends the open text or reasoning part, if any (before the stream's end). */
  close(): UiChunk[] {
    return this.#close();
  }

  /**
   * A call the stream has not shown (the loop gave it a new id when the model's was missing or repeated):
   * its part first, so the page never gets an output for a call it does not know.
   */
  #unseen(call: ToolCallPart): UiChunk[] {
    if (this.#started.has(call.id)) return [];
    this.#begin(call.id);
    this.#ended.add(call.id);
    const part = { toolCallId: call.id, toolName: call.name, dynamic: true };
    return [
      { type: 'tool-input-start', ...part },
      { type: 'tool-input-available', ...part, input: call.input ?? {} },
    ];
  }

  #begin(id: string): void {
    this.#started.add(id);
    this.#step.add(id);
  }

  #into(kind: 'text' | 'reasoning', turn: number): UiChunk[] {
    if (this.#open?.kind === kind) return [];
    const closed = this.#close();
    this.#parts += 1;
    this.#open = { kind, id: `${kind}-${turn}-${this.#parts}` };
    return [...closed, { type: `${kind}-start`, id: this.#open.id }];
  }

  #id(): string {
    return this.#open?.id ?? '';
  }

  #close(): UiChunk[] {
    const open = this.#open;
    if (open === undefined) return [];
    this.#open = undefined;
    return [{ type: `${open.kind}-end`, id: open.id }];
  }
}

/** What a call's verdict shows: its output, its error, or the human's refusal; nothing yet while it waits. */
function verdictChunks(event: Extract<LoopStreamEvent, { type: 'call-verdict' }>): UiChunk[] {
  const { verdict, result, call } = event;
  const toolCallId = call.id;
  if (verdict.kind === 'awaiting_confirmation') return [];
  if (verdict.kind === 'refused' && verdict.reason === 'confirmation_denied') {
    return [{ type: 'tool-output-denied', toolCallId }];
  }
  const text = toolResultText(result.content);
  if (verdict.kind === 'executed' && !result.isError) {
    return [{ type: 'tool-output-available', toolCallId, output: text, dynamic: true }];
  }
  return [{ type: 'tool-output-error', toolCallId, errorText: text, dynamic: true }];
}
