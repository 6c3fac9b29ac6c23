import type { Catalogue } from '../catalogue/catalogue.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { LoopState } from '../loop/loop-state.js';
import type { Message, ToolMessage, ToolResultPart, UserMessage } from '../messages/messages.js';
import type { ContextEditing, Model, ModelRequest } from '../messages/model.js';
import type { Usage } from '../messages/usage.js';
import { clearedMessage } from './cleared-result.js';
import { type ContextPolicy, type ContextReport, DEFAULT_KEEP_TURNS } from './context-policy.js';
import { messageTokens, resultTokens, textTokens, toolsTokens } from './estimate-tokens.js';
import { foldsUntrusted, summaryMessage } from './summary-message.js';

/** Results this small are never cleared: the placeholder would save nothing. */
const SMALLEST_CLEARED_TOKENS = 100;

interface Summary {
  readonly text: string;
  readonly untrusted: boolean;
  /** The run's messages before this index (from the first assistant message on) are folded into it. */
  readonly through: number;
  readonly message: UserMessage;
}

/** Where a request's messages may change: folding starts at `start`, nothing at or after `keepFrom` changes. */
interface Bounds {
  /** The first assistant message: what comes before it (the caller's opening messages) is always sent. */
  readonly start: number;
  /** The first message of the last `keepTurns` turns (`start` when the run has no more turns than that). */
  readonly keepFrom: number;
}

/**
 * One run's context policy at work: decides, before each request, what of the run's messages is sent as
 * it is, what is cleared and what is folded into a summary, and learns from the provider's count of each
 * request how far the cheap estimate is off.
 *
 * The estimate of a request is the cheap one (`estimate-tokens.ts`) of what is sent, times the ratio of the
 * provider's count of the previous request to the cheap estimate of that request: the provider's count plus
 * what was added since, scaled as the provider counts. The ratio is never taken below 1: a provider that
 * counts fewer tokens than the estimate (or reports none, or nonsense) cannot make a request look smaller
 * than the estimate says. Before the first answer (and after a resume, whose first request this shaper did
 * not send) the ratio is 1.
 *
 * Decisions only grow within a run: a result cleared stays cleared, folded turns stay folded, so requests
 * do not flip back and forth and a provider's prompt cache is written again only when something new is
 * cleared or folded. Each clearing or folding frees `clearAtLeast` tokens beyond the budget.
 */
export class ContextShaper {
  readonly #policy: ContextPolicy;
  readonly #state: LoopState;
  readonly #catalogue: Catalogue;
  readonly #keepTurns: number;
  readonly #clearAtLeast: number;
  readonly #keepTools: ReadonlySet<string>;
  readonly #cleared = new WeakMap<ToolMessage, ToolMessage>();
  readonly #clearable = (part: ToolResultPart): boolean =>
    !this.#keepTools.has(part.name) && resultTokens(part) > SMALLEST_CLEARED_TOKENS;
  /** The provider's count over the cheap estimate, from the last request it answered (≥ 1). */
  #ratio = 1;
  /** The cheap estimate of the last request sent, until its answer brings the provider's count. */
  #lastSent: number | undefined;
  /** Tool messages before this index are sent with their clearable results cleared. */
  #clearedThrough = 0;
  #summary: Summary | undefined;

  constructor(policy: ContextPolicy, state: LoopState, catalogue: Catalogue) {
    this.#policy = policy;
    this.#state = state;
    this.#catalogue = catalogue;
    this.#keepTurns = policy.keepTurns ?? DEFAULT_KEEP_TURNS;
    this.#clearAtLeast = policy.clearAtLeast ?? Math.floor(policy.maxTokens / 4);
    this.#keepTools = new Set(policy.keepTools ?? []);
  }

  /** The request as it goes to `model`: shaped, or whole with `contextEditing` for a model that clears itself. */
  shape(request: ModelRequest, model: Model): ModelRequest | Promise<ModelRequest> {
    const { messages } = request;
    const bounds = boundsOf(messages, this.#keepTurns);
    const base = (request.system === undefined ? 0 : textTokens(request.system)) + toolsTokens(request.tools);
    if (this.#policy.native === true && model.clearsToolResults === true) {
      return this.#native(request, bounds, base);
    }
    const full = base + sumTokens(messages, 0, messages.length);
    const sent = this.#sentTokens(messages, bounds, base);
    const over = this.#ratio * sent > this.#policy.maxTokens;
    if (!over) return this.#send(request, bounds, full, sent, false);
    const target = Math.max(0, (this.#policy.maxTokens - this.#clearAtLeast) / this.#ratio);
    const afterClearing = this.#clear(messages, bounds, sent, target);
    if (afterClearing <= target || this.#policy.summarise === undefined) {
      return this.#send(request, bounds, full, afterClearing, false);
    }
    const fold = this.#foldUntil(messages, bounds, afterClearing, target);
    if (fold === undefined) return this.#send(request, bounds, full, afterClearing, false);
    return this.#summarise(request, bounds.start, fold).then(() =>
      this.#send(request, bounds, full, this.#sentTokens(messages, bounds, base), true),
    );
  }

  /** The provider answered the last request: its count of that request's input calibrates the estimate. */
  answered(usage: Usage | undefined): void {
    const sent = this.#lastSent;
    const counted = usage?.inputTokens;
    if (sent === undefined || sent <= 0 || typeof counted !== 'number' || !Number.isFinite(counted)) return;
    this.#ratio = Math.max(1, counted / sent);
  }

  /** The cheap estimate of the request as the decisions so far would send it. */
  #sentTokens(messages: readonly Message[], bounds: Bounds, base: number): number {
    const summary = this.#usableSummary(bounds);
    const from = summary === undefined ? bounds.start : summary.through;
    let tokens = base + sumTokens(messages, 0, bounds.start);
    if (summary !== undefined) tokens += messageTokens(summary.message);
    const clearedEnd = Math.min(this.#clearedThrough, bounds.keepFrom);
    for (let index = from; index < messages.length; index += 1) {
      tokens += messageTokens(
        index < clearedEnd ? this.#viewOf(messages[index] as Message) : (messages[index] as Message),
      );
    }
    return tokens;
  }

  /** Clears whole turns' results, oldest first, until the estimate is at most `target`; returns the estimate. */
  #clear(messages: readonly Message[], bounds: Bounds, sent: number, target: number): number {
    if (this.#policy.clearToolResults === false) return sent;
    const summary = this.#usableSummary(bounds);
    let index = Math.max(this.#clearedThrough, summary === undefined ? bounds.start : summary.through);
    let tokens = sent;
    for (; tokens > target && index < bounds.keepFrom; index += 1) {
      const message = messages[index] as Message;
      if (message.role === 'tool') tokens -= messageTokens(message) - messageTokens(this.#viewOf(message));
    }
    this.#clearedThrough = Math.max(this.#clearedThrough, index);
    return tokens;
  }

  /**
   * The smallest fold of whole turns, oldest first (the previous summary's turns included), that brings the
   * estimate to `target` without the new summary, or all the turns before the last `keepTurns` when none
   * does; `undefined` when there is no turn to fold.
   */
  #foldUntil(messages: readonly Message[], bounds: Bounds, sent: number, target: number): number | undefined {
    const summary = this.#usableSummary(bounds);
    const from = summary === undefined ? bounds.start : summary.through;
    if (from >= bounds.keepFrom) return undefined;
    let tokens = sent - (summary === undefined ? 0 : messageTokens(summary.message));
    const clearedEnd = Math.min(this.#clearedThrough, bounds.keepFrom);
    for (let index = from; index < bounds.keepFrom; index += 1) {
      const message = messages[index] as Message;
      tokens -= messageTokens(index < clearedEnd ? this.#viewOf(message) : message);
      // A turn ends where the next assistant message starts: a call is never folded apart from its result.
      const next = index + 1;
      if (next === bounds.keepFrom || (tokens <= target && messages[next]?.role === 'assistant')) return next;
    }
    return bounds.keepFrom;
  }

  async #summarise(request: ModelRequest, start: number, through: number): Promise<void> {
    const previous = this.#summary;
    const state = this.#state;
    // The run's own messages (results whole), not the request's (cleared or spotlit): same indexes.
    const from = previous === undefined ? start : previous.through;
    const folded = state.messages.slice(from, through);
    const untrusted = previous?.untrusted === true || foldsUntrusted(folded, state.provenance);
    const summarise = this.#policy.summarise as NonNullable<ContextPolicy['summarise']>;
    const text: unknown = await summarise({
      runId: state.runId,
      turn: state.turns.length + 1,
      messages: folded,
      previousSummary: previous?.text,
      untrusted,
      signal: request.signal,
    });
    if (typeof text !== 'string') {
      throw new InvalidLoopOptionsError(
        'contextPolicy.summarise',
        `it returned ${text === null ? 'null' : typeof text}; return the summary's text, a string.`,
      );
    }
    const message = summaryMessage(text, through - start, untrusted, state.provenance);
    this.#summary = { text, untrusted, through, message };
  }

  #native(request: ModelRequest, bounds: Bounds, base: number): ModelRequest {
    const { messages } = request;
    let keepToolUses = 0;
    for (let index = bounds.keepFrom; index < messages.length; index += 1) {
      const message = messages[index] as Message;
      if (message.role === 'tool') keepToolUses += message.content.length;
    }
    const contextEditing: ContextEditing = {
      clearToolResults: {
        triggerTokens: this.#policy.maxTokens,
        keepToolUses,
        clearAtLeastTokens: this.#clearAtLeast,
        ...(this.#keepTools.size === 0 ? {} : { excludeTools: [...this.#keepTools] }),
      },
    };
    const tokens = Math.ceil(this.#ratio * (base + sumTokens(messages, 0, messages.length)));
    this.#lastSent = undefined;
    this.#report({
      fullTokens: tokens,
      sentTokens: tokens,
      clearedResults: 0,
      foldedMessages: 0,
      summarised: false,
      native: true,
    });
    return Object.assign({}, request, { contextEditing });
  }

  /** The request with the decisions applied, reported. */
  #send(request: ModelRequest, bounds: Bounds, full: number, sent: number, summarised: boolean): ModelRequest {
    const { messages } = request;
    const summary = this.#usableSummary(bounds);
    const clearedEnd = Math.min(this.#clearedThrough, bounds.keepFrom);
    const from = summary === undefined ? bounds.start : summary.through;
    let clearedResults = 0;
    let shaped: readonly Message[] = messages;
    if (summary !== undefined || clearedEnd > from) {
      const view: Message[] = messages.slice(0, bounds.start);
      if (summary !== undefined) view.push(summary.message);
      for (let index = from; index < messages.length; index += 1) {
        const message = messages[index] as Message;
        if (index >= clearedEnd || message.role !== 'tool') {
          view.push(message);
          continue;
        }
        const cleared = this.#viewOf(message) as ToolMessage;
        for (let part = 0; part < cleared.content.length; part += 1) {
          if (cleared.content[part] !== message.content[part]) clearedResults += 1;
        }
        view.push(cleared);
      }
      shaped = view;
    }
    this.#lastSent = sent;
    this.#report({
      fullTokens: Math.ceil(this.#ratio * full),
      sentTokens: Math.ceil(this.#ratio * sent),
      clearedResults,
      foldedMessages: summary === undefined ? 0 : summary.through - bounds.start,
      summarised,
      native: false,
    });
    return shaped === messages ? request : Object.assign({}, request, { messages: shaped });
  }

  #report(figures: Omit<ContextReport, 'runId' | 'turn' | 'maxTokens' | 'overBudget'>): void {
    const onRequest = this.#policy.onRequest;
    if (onRequest === undefined) return;
    const { maxTokens } = this.#policy;
    onRequest({
      runId: this.#state.runId,
      turn: this.#state.turns.length + 1,
      maxTokens,
      ...figures,
      overBudget: !figures.native && figures.sentTokens > maxTokens,
    });
  }

  /** A tool message as sent once cleared; any other message as it is. */
  #viewOf(message: Message): Message {
    if (message.role !== 'tool') return message;
    return clearedMessage(message, this.#clearable, this.#catalogue, this.#cleared);
  }

  /** The summary, unless the run's messages no longer reach past it (they only grow within a run). */
  #usableSummary(bounds: Bounds): Summary | undefined {
    const summary = this.#summary;
    return summary !== undefined && summary.through <= bounds.keepFrom ? summary : undefined;
  }
}

function sumTokens(messages: readonly Message[], from: number, to: number): number {
  let tokens = 0;
  for (let index = from; index < to; index += 1) tokens += messageTokens(messages[index] as Message);
  return tokens;
}

function firstAssistant(messages: readonly Message[]): number {
  const index = messages.findIndex((message) => message.role === 'assistant');
  return index === -1 ? messages.length : index;
}

function boundsOf(messages: readonly Message[], keepTurns: number): Bounds {
  const start = firstAssistant(messages);
  let kept = 0;
  let keepFrom = messages.length;
  for (let index = messages.length - 1; index >= start && kept < keepTurns; index -= 1) {
    if (messages[index]?.role === 'assistant') {
      kept += 1;
      keepFrom = index;
    }
  }
  return { start, keepFrom: kept < keepTurns ? start : keepFrom };
}
