import {
  addUsage,
  canonicalJson,
  type Message,
  type ModelTurn,
  type ResultEvent,
  type StepPlan,
  type TurnEvent,
  toolCallsOf,
  type Usage,
} from '@toolcircuit/core';
import { rememberCanonical } from '../store/canonical-text.js';
import type { StartedTurn } from '../store/durable-store.js';

/** A usage no turn has reported yet (core's `emptyUsage`, which it does not export). */
export const NO_USAGE: Usage = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };

/**
 * The conversation as the loop builds it, followed through its `onTurn` and `onResult` hooks: the state a
 * started turn stores, so that `recover` can go on from the last turn whose calls started. It appends what
 * the loop appends (the assistant message of each model turn, each reply) and nothing else.
 */
export class TurnMirror {
  readonly #runId: string;
  readonly #messages: Message[];
  readonly #turns: ModelTurn[];
  #usage: Usage;
  #turn: number;
  #step: StepPlan | undefined;
  /** Position of each call of the current turn. */
  #positions = new Map<string, number>();
  /** The turn whose state the store holds: its first start carries it otherwise. */
  #storedTurn: number;
  /** Canonical JSON of the first messages and turns, each written once (the state's text is made of them). */
  readonly #messageTexts: string[] = [];
  readonly #turnTexts: string[] = [];

  constructor(base: Omit<StartedTurn, 'version'>, storedTurn: number) {
    this.#runId = base.runId;
    this.#messages = [...base.messages];
    this.#turns = [...base.turns];
    this.#usage = base.usage;
    this.#turn = base.turn;
    this.#step = base.step;
    this.#storedTurn = storedTurn;
    const last = base.messages.at(-1);
    if (last?.role === 'assistant') this.#index(last.content);
  }

  onTurn(event: TurnEvent): void {
    const { modelTurn } = event;
    this.#turns.push(modelTurn);
    this.#usage = addUsage(this.#usage, modelTurn.usage);
    // As core's loop writes it into the conversation.
    this.#messages.push({
      role: 'assistant',
      content: modelTurn.content,
      ...(modelTurn.providerMetadata === undefined ? {} : { providerMetadata: modelTurn.providerMetadata }),
    });
    this.#turn = event.turn;
    this.#step = event.plan;
    this.#positions = new Map();
    this.#index(modelTurn.content);
  }

  onResult(event: ResultEvent): void {
    this.#messages.push(event.message);
  }

  /**
   * Where a call about to run stands in the current turn, and the turn's state to store with its start
   * when the store does not hold it yet (once per turn). Throws when the call is not one of the turn's:
   * the mirror would store a state that does not lead to it, so the call must not run.
   */
  starting(turn: number, callId: string): { index: number; started?: StartedTurn } {
    const index = this.#positions.get(callId);
    if (turn !== this.#turn || index === undefined) {
      throw new Error(
        `call "${callId}" of turn ${turn} is not a call of turn ${this.#turn} as the durable runner followed it; ` +
          'it was not run.',
      );
    }
    if (this.#storedTurn === turn) return { index };
    this.#storedTurn = turn;
    return { index, started: this.state() };
  }

  /**
   * The state as it stands: the conversation up to the current turn's assistant message. Its canonical
   * text is recorded with it, written from each message's and turn's text, serialised once per run (the
   * same text as `canonicalJson` of the whole: keys in UTF-16 order, arrays joined by commas).
   */
  state(): StartedTurn {
    const state: StartedTurn = {
      version: 1,
      runId: this.#runId,
      turn: this.#turn,
      messages: [...this.#messages],
      turns: [...this.#turns],
      usage: this.#usage,
      ...(this.#step === undefined ? {} : { step: this.#step }),
    };
    for (let index = this.#messageTexts.length; index < this.#messages.length; index += 1) {
      this.#messageTexts.push(canonicalJson(this.#messages[index]));
    }
    for (let index = this.#turnTexts.length; index < this.#turns.length; index += 1) {
      this.#turnTexts.push(canonicalJson(this.#turns[index]));
    }
    const text =
      `{"messages":[${this.#messageTexts.join(',')}],"runId":${JSON.stringify(this.#runId)},` +
      `${state.step === undefined ? '' : `"step":${canonicalJson(state.step)},`}"turn":${state.turn},` +
      `"turns":[${this.#turnTexts.join(',')}],"usage":${canonicalJson(state.usage)},"version":1}`;
    rememberCanonical(state, text);
    return state;
  }

  #index(content: Message['content']): void {
    if (typeof content === 'string') return;
    for (const [index, call] of toolCallsOf(content as Parameters<typeof toolCallsOf>[0]).entries()) {
      this.#positions.set(call.id, index);
    }
  }
}
