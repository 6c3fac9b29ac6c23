import {
  addUsage,
  canonicalJson,
  type Message,
  type ModelTurn,
  type ResultEvent,
  type SealKey,
  type StepPlan,
  sealOfText,
  type TaintSourceRef,
  type TurnEvent,
  toolCallsOf,
  type Usage,
} from '@toolcircuit/core';
import { rememberLists } from '../store/appended-state.js';
import { rememberCanonical } from '../store/canonical-text.js';
import { STARTED_TURN_SEAL, type StartedTurn } from '../store/durable-store.js';
import { ItemChain } from '../store/item-chain.js';

/** A usage no turn has reported yet (core's `emptyUsage`, which it does not export). */
export const NO_USAGE: Usage = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };

/**
 * The conversation as the loop builds it, followed through its `onTurn` and `onResult` hooks: the state a
 * started turn stores, so that `recover` can go on from the last turn whose calls started. It appends what
 * the loop appends (the assistant message of each model turn, each reply) and nothing else, and keeps the
 * run's untrusted sources as each reply reports them, so a recovered run gates what the run gated. With a
 * key, each state is sealed.
 */
export class TurnMirror {
  readonly #runId: string;
  readonly #messages: Message[];
  readonly #turns: ModelTurn[];
  #usage: Usage;
  #turn: number;
  #step: StepPlan | undefined;
  /** The run's untrusted sources, as of the last reply (or the base state); absent when not tracked. */
  #sources: (() => readonly TaintSourceRef[] | undefined) | undefined;
  readonly #key: SealKey | undefined;
  /** Position of each call of the current turn. */
  #positions = new Map<string, number>();
  /** The turn whose state the store holds: its first start carries it otherwise. */
  #storedTurn: number;
  /**
   * The messages, model turns and stored sources, each serialised and hashed once: the store writes only
   * the items a state adds to the one before, and a sealed state's text is made of these texts.
   */
  readonly #messageChain = new ItemChain();
  readonly #turnChain = new ItemChain();
  readonly #sourceChain = new ItemChain();
  /**
   * The sources as core last listed them, and each as stored (without its text), made once: the sources of
   * a run are the same objects reply after reply, in the same order, so a new list is compared by position
   * and only its new sources are made (and the store's chain of them only grows).
   */
  #listedSources: readonly TaintSourceRef[] = [];
  #storedSources: TaintSourceRef[] = [];

  constructor(base: Omit<StartedTurn, 'version' | 'seal'>, storedTurn: number, key?: SealKey) {
    this.#runId = base.runId;
    this.#messages = [...base.messages];
    this.#turns = [...base.turns];
    this.#usage = base.usage;
    this.#turn = base.turn;
    this.#step = base.step;
    this.#storedTurn = storedTurn;
    this.#key = key;
    const sources = base.provenance?.sources;
    this.#sources = sources === undefined ? undefined : () => sources;
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
    // Listed when a state is stored (the event lists them lazily, as they stood at this reply).
    if ('untrustedSources' in event) this.#sources = () => event.untrustedSources;
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
   * The state as it stands: the conversation up to the current turn's assistant message, the sources, and
   * the seal. Each message, model turn and source is serialised once per run; the store is told the lists
   * (see `appended-state.ts`), so storing the state writes only what it adds. A sealed state's canonical
   * text (the seal is made from it) is written from those texts: the same text as `canonicalJson` of the
   * whole (keys in UTF-16 order, arrays joined by commas).
   */
  state(): StartedTurn {
    const listed = this.#sources?.();
    const sources = listed === undefined ? undefined : this.#stored(listed);
    const content: Omit<StartedTurn, 'seal'> = {
      version: 1,
      runId: this.#runId,
      turn: this.#turn,
      messages: [...this.#messages],
      turns: [...this.#turns],
      usage: this.#usage,
      ...(this.#step === undefined ? {} : { step: this.#step }),
      ...(sources === undefined ? {} : { provenance: { sources } }),
    };
    const lists = {
      messages: this.#messageChain.sync(content.messages),
      turns: this.#turnChain.sync(content.turns),
      ...(sources === undefined ? {} : { sources: this.#sourceChain.sync(sources) }),
    };
    if (this.#key === undefined) {
      rememberLists(content, lists);
      return content;
    }
    const texts = (view: { count: number; text(index: number): string }) =>
      Array.from({ length: view.count }, (_, index) => view.text(index)).join(',');
    const provenance = lists.sources === undefined ? '' : `"provenance":{"sources":[${texts(lists.sources)}]},`;
    const head = `{"messages":[${texts(lists.messages)}],${provenance}"runId":${JSON.stringify(this.#runId)},`;
    const tail =
      `${content.step === undefined ? '' : `"step":${canonicalJson(content.step)},`}"turn":${content.turn},` +
      `"turns":[${texts(lists.turns)}],"usage":${canonicalJson(content.usage)},"version":1}`;
    const seal = sealOfText(STARTED_TURN_SEAL, head + tail, this.#key);
    const state: StartedTurn = { ...content, seal };
    rememberCanonical(state, `${head}"seal":${canonicalJson(seal)},${tail}`);
    rememberLists(state, lists);
    return state;
  }

  /** The sources as the state stores them: without their texts, the same objects every turn. */
  #stored(listed: readonly TaintSourceRef[]): TaintSourceRef[] {
    const known = this.#listedSources;
    let same = 0;
    const common = Math.min(known.length, listed.length);
    while (same < common && known[same] === listed[same]) same += 1;
    const stored = this.#storedSources.slice(0, same);
    for (let index = same; index < listed.length; index += 1) {
      const source = listed[index] as TaintSourceRef;
      stored.push({
        turn: source.turn,
        callId: source.callId,
        toolName: source.toolName,
        outputDigest: source.outputDigest,
      });
    }
    this.#listedSources = listed;
    this.#storedSources = stored;
    return stored;
  }

  #index(content: Message['content']): void {
    if (typeof content === 'string') return;
    for (const [index, call] of toolCallsOf(content as Parameters<typeof toolCallsOf>[0]).entries()) {
      this.#positions.set(call.id, index);
    }
  }
}
