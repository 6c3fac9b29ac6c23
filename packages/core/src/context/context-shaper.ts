import type { Catalogue } from '../catalogue/catalogue.js';
import { withoutKept } from '../data-flow/model-view.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { Message, ToolMessage, ToolResultPart, UserMessage } from '../messages/messages.js';
import type { ContextEditing, Model, ModelRequest } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import { clearedMessage } from './cleared-result.js';
import { type ContextPolicy, type ContextReport, DEFAULT_KEEP_TURNS } from './context-policy.js';
import { messageTokens, resultTokens, textTokens, toolsTokens } from './estimate-tokens.js';
import { foldsUntrusted, summaryMessage } from './summary-message.js';

/** Results this small are never cleared: the placeholder would save nothing. */
const SMALLEST_CLEARED_TOKENS = 100;

/**
 * What the provider has not counted yet (the messages since the request it last answered, a new summary) is
 * estimated half again as large: the cheap estimate of one new result can be off by a third either way (JSON
 * and code run denser than prose), and the provider's count only corrects it from the next answer on.
 */
const UNCOUNTED_MARGIN = 0.5;

/** What the shaper reads of its run (the loop's state): its id, its own messages, its turns, its provenance. */
export interface ShapedRun {
  readonly runId: string;
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  readonly provenance?: RunProvenance | undefined;
}

interface Summary {
  readonly text: string;
  readonly untrusted: boolean;
  /** The run's messages before this index (from the first assistant message on) are folded into it. */
  readonly through: number;
  readonly message: UserMessage;
  readonly tokens: number;
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
 * The estimate of a request is the cheap one (`estimate-tokens.ts`) of what is sent, what the provider has
 * not counted yet half again, times the ratio of the provider's count of the previous request to the cheap
 * estimate of that request: the provider's count plus what was added since, scaled as the provider counts.
 * The ratio is never taken below 1: a provider that counts fewer tokens than the estimate (or reports none,
 * or nonsense) cannot make a request look smaller than the estimate says. Before the first answer (and after
 * a resume, whose first request this shaper did not send) the ratio is 1 and nothing is counted.
 *
 * Decisions only grow within a run: a result cleared stays cleared, folded turns stay folded, so requests
 * do not flip back and forth and a provider's prompt cache is written again only when something new is
 * cleared or folded. Each clearing or folding frees `clearAtLeast` tokens beyond the budget.
 *
 * Messages are only ever appended to a run (the loop may rewrite its newest assistant message), so the
 * shaper keeps, per index, the message it saw there and its estimates as it is and as sent: a request costs
 * an identity check per message and the estimate of what is new.
 */
export class ContextShaper {
  readonly #policy: ContextPolicy;
  readonly #state: ShapedRun;
  readonly #catalogue: Catalogue;
  readonly #keepTurns: number;
  readonly #clearAtLeast: number;
  readonly #keepTools: ReadonlySet<string>;
  readonly #copies = new WeakMap<ToolMessage, ToolMessage>();
  readonly #clearable = (part: ToolResultPart): boolean =>
    !this.#keepTools.has(part.name) && resultTokens(part) > SMALLEST_CLEARED_TOKENS;
  /**
   * Per index of the request's messages: the message seen there, its tokens whole and as sent, the message
   * sent for it (its cleared copy once cleared) and how many results that copy clears; and the running sums
   * of the figures (`…Sum[i]`: over the indexes before `i`), so a request's estimate costs no loop.
   */
  readonly #seen: Message[] = [];
  readonly #whole: number[] = [];
  readonly #sent: number[] = [];
  readonly #view: Message[] = [];
  readonly #placeholders: number[] = [];
  readonly #wholeSum: number[] = [0];
  readonly #sentSum: number[] = [0];
  readonly #placeholderSum: number[] = [0];
  /** Tool messages before this index are sent with their clearable results cleared. */
  #clearedThrough = 0;
  #summary: Summary | undefined;
  /** The provider's count over the cheap estimate, from the last request it answered (≥ 1). */
  #ratio = 1;
  /** The messages before this index were in the request the provider last counted. */
  #counted = 0;
  /** The last request sent, until its answer: its cheap estimate and how many messages it held. */
  #pending: { readonly estimate: number; readonly messages: number } | undefined;

  constructor(policy: ContextPolicy, state: ShapedRun, catalogue: Catalogue) {
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
    this.#sync(messages);
    const bounds = boundsOf(messages, this.#keepTurns);
    const base = (request.system === undefined ? 0 : textTokens(request.system)) + toolsTokens(request.tools);
    if (this.#policy.native === true && model.clearsToolResults === true) return this.#native(request, bounds, base);
    const full = this.#estimate(bounds, base, true);
    let sent = this.#estimate(bounds, base, false);
    if (this.#ratio * sent <= this.#policy.maxTokens) return this.#send(request, bounds, base, full, false);
    const target = Math.max(0, (this.#policy.maxTokens - this.#clearAtLeast) / this.#ratio);
    sent = this.#clear(bounds, sent, target);
    if (sent <= target || this.#policy.summarise === undefined) return this.#send(request, bounds, base, full, false);
    const through = this.#foldUntil(bounds, sent, target);
    if (through === undefined) return this.#send(request, bounds, base, full, false);
    return this.#summarise(request, bounds.start, through).then(() => this.#send(request, bounds, base, full, true));
  }

  /** The provider answered the last request: its count of that request's input calibrates the estimate. */
  answered(usage: Usage | undefined): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return;
    // What that request held is counted now, whatever the count says: only the ratio needs a sane one.
    this.#counted = Math.min(pending.messages, this.#seen.length);
    const counted = usage?.inputTokens;
    if (pending.estimate <= 0 || typeof counted !== 'number' || !Number.isFinite(counted)) return;
    this.#ratio = Math.max(1, counted / pending.estimate);
  }

  /** Brings the per-index figures up to the request's messages: new ones estimated, a changed one again. */
  #sync(messages: readonly Message[]): void {
    const seen = this.#seen;
    const common = Math.min(seen.length, messages.length);
    let index = 0;
    while (index < common && seen[index] === messages[index]) index += 1;
    if (index < seen.length) {
      for (const list of [seen, this.#whole, this.#sent, this.#view, this.#placeholders]) list.length = index;
      for (const sums of [this.#wholeSum, this.#sentSum, this.#placeholderSum]) sums.length = index + 1;
      this.#counted = Math.min(this.#counted, index);
      // Only the newest turn is ever rewritten, never folded; a summary past a change would misplace it.
      if (this.#summary !== undefined && this.#summary.through > index) this.#summary = undefined;
    }
    for (; index < messages.length; index += 1) {
      const message = messages[index] as Message;
      const tokens = messageTokens(message);
      seen.push(message);
      this.#whole.push(tokens);
      this.#sent.push(tokens);
      this.#view.push(message);
      this.#placeholders.push(0);
      if (index < this.#clearedThrough) this.#clearAt(index);
      this.#wholeSum.push((this.#wholeSum[index] as number) + tokens);
      this.#sentSum.push((this.#sentSum[index] as number) + (this.#sent[index] as number));
      this.#placeholderSum.push((this.#placeholderSum[index] as number) + (this.#placeholders[index] as number));
    }
  }

  /**
   * Clears the results of the message at `index`, if it is a tool message with results worth clearing (the
   * running sums are then stale from `index` on: see `#resum`).
   */
  #clearAt(index: number): void {
    const message = this.#seen[index];
    if (message?.role !== 'tool' || this.#placeholders[index] !== 0) return;
    const copy = clearedMessage(message, this.#clearable, this.#catalogue, this.#copies);
    let placeholders = 0;
    for (let part = 0; part < copy.content.length; part += 1) {
      if (copy.content[part] !== message.content[part]) placeholders += 1;
    }
    if (placeholders === 0) return;
    this.#view[index] = copy;
    this.#placeholders[index] = placeholders;
    this.#sent[index] = messageTokens(copy);
  }

  /** The running sums of what is sent, again from `from` on. */
  #resum(from: number): void {
    const sent = this.#sentSum;
    const placeholders = this.#placeholderSum;
    for (let index = from; index < this.#seen.length; index += 1) {
      sent[index + 1] = (sent[index] as number) + (this.#sent[index] as number);
      placeholders[index + 1] = (placeholders[index] as number) + (this.#placeholders[index] as number);
    }
  }

  /** A sum over `[from, to)` of the figures `sums` runs over, what the provider has not counted half again. */
  #weighed(sums: readonly number[], from: number, to: number): number {
    const uncounted = Math.min(Math.max(from, this.#counted), to);
    return (
      (sums[to] as number) -
      (sums[from] as number) +
      UNCOUNTED_MARGIN * ((sums[to] as number) - (sums[uncounted] as number))
    );
  }

  /** How much a message's estimate weighs: more for what the provider has not counted yet. */
  #weight(index: number): number {
    return index < this.#counted ? 1 : 1 + UNCOUNTED_MARGIN;
  }

  /** The estimate of the request, as the decisions so far would send it or (`whole`) as the run holds it. */
  #estimate(bounds: Bounds, base: number, whole: boolean): number {
    const n = this.#seen.length;
    if (whole) return base + this.#weighed(this.#wholeSum, 0, n);
    const summary = this.#summary;
    const from = summary === undefined ? bounds.start : summary.through;
    const folded = summary === undefined ? 0 : summary.tokens * (1 + UNCOUNTED_MARGIN);
    return base + this.#weighed(this.#wholeSum, 0, bounds.start) + folded + this.#weighed(this.#sentSum, from, n);
  }

  /** Clears whole turns' results, oldest first, until the estimate is at most `target`; returns the estimate. */
  #clear(bounds: Bounds, sent: number, target: number): number {
    if (this.#policy.clearToolResults === false) return sent;
    const first = Math.max(this.#clearedThrough, this.#summary?.through ?? bounds.start);
    let index = first;
    let estimate = sent;
    for (; estimate > target && index < bounds.keepFrom; index += 1) {
      const before = this.#sent[index] as number;
      this.#clearAt(index);
      estimate -= (before - (this.#sent[index] as number)) * this.#weight(index);
    }
    this.#clearedThrough = Math.max(this.#clearedThrough, index);
    if (index > first) this.#resum(first);
    return estimate;
  }

  /**
   * The smallest fold of whole turns, oldest first (the previous summary's turns included), that brings the
   * estimate to `target` without the new summary, or all the turns before the last `keepTurns` when none
   * does; `undefined` when there is no turn to fold.
   */
  #foldUntil(bounds: Bounds, sent: number, target: number): number | undefined {
    const from = this.#summary?.through ?? bounds.start;
    if (from >= bounds.keepFrom) return undefined;
    let estimate = sent - (this.#summary === undefined ? 0 : this.#summary.tokens * (1 + UNCOUNTED_MARGIN));
    for (let index = from; index < bounds.keepFrom; index += 1) {
      estimate -= (this.#sent[index] as number) * this.#weight(index);
      // A turn ends where the next assistant message starts: a call is never folded apart from its result.
      const next = index + 1;
      if (next === bounds.keepFrom || (estimate <= target && this.#seen[next]?.role === 'assistant')) return next;
    }
    return bounds.keepFrom;
  }

  async #summarise(request: ModelRequest, start: number, through: number): Promise<void> {
    const previous = this.#summary;
    const state = this.#state;
    // The run's own messages (results whole), not the request's (cleared or spotlit): same indexes. What the
    // data-flow options keep with a result (a quarantined document) is never sent to a model, and a summariser
    // is one's way in: it gets the messages as the model is sent them.
    const folded = withoutKept(state.messages.slice(previous?.through ?? start, through));
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
    this.#summary = { text, untrusted, through, message, tokens: messageTokens(message) };
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
    // The provider counts what it kept, not what was sent: no calibration from its answer.
    this.#pending = undefined;
    const tokens = Math.ceil(this.#ratio * this.#estimate(bounds, base, true));
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
  #send(request: ModelRequest, bounds: Bounds, base: number, full: number, summarised: boolean): ModelRequest {
    const { messages } = request;
    const n = messages.length;
    const summary = this.#summary;
    const from = summary?.through ?? bounds.start;
    const clearedResults = (this.#placeholderSum[n] as number) - (this.#placeholderSum[from] as number);
    let shaped: readonly Message[] = messages;
    if (summary !== undefined) {
      shaped = this.#view.slice(0, bounds.start).concat(summary.message, this.#view.slice(from));
    } else if (clearedResults > 0) {
      shaped = this.#view.slice();
    }
    // What the provider's count of this request will be set against: the estimate of what was sent, unweighed.
    const unweighed =
      base +
      (this.#wholeSum[bounds.start] as number) +
      (summary === undefined ? 0 : summary.tokens) +
      (this.#sentSum[n] as number) -
      (this.#sentSum[from] as number);
    this.#pending = { estimate: unweighed, messages: n };
    if (this.#policy.onRequest !== undefined) {
      this.#report({
        fullTokens: Math.ceil(this.#ratio * full),
        sentTokens: Math.ceil(this.#ratio * this.#estimate(bounds, base, false)),
        clearedResults,
        foldedMessages: summary === undefined ? 0 : summary.through - bounds.start,
        summarised,
        native: false,
      });
    }
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
}

function boundsOf(messages: readonly Message[], keepTurns: number): Bounds {
  let start = 0;
  while (start < messages.length && messages[start]?.role !== 'assistant') start += 1;
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
