import type { Catalogue } from '../catalogue/catalogue.js';
import type { ToolDefinition } from '../catalogue/tool.js';
import type { RunDataFlow } from '../data-flow/run-data-flow.js';
import { jsonDigest } from '../json/canonical-json.js';
import type { JsonValue } from '../json/json.js';
import type { AssistantMessage, Message, ToolCallPart, ToolResultPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { UntrustedContent } from '../messages/untrusted-content.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import { DEFAULT_MIN_VERBATIM_LENGTH, flaggedArguments } from './argument-provenance.js';
import type { ConfirmationRequest } from './confirmation-request.js';
import type { OutputTrust, ProvenanceOptions, TaintPolicy } from './provenance-options.js';
import { keptContentOf, searchableText } from './searchable-text.js';
import { refOf, type TaintSource, type TaintSourceRef } from './taint-source.js';

/** A gated call: the request the human is shown, made once per attempt. */
export interface CallGate {
  readonly request: ConfirmationRequest;
  /** What the application's policy said, once asked. */
  policy?: TaintPolicy;
}

/** Who a gated call is for: its confirmation request names them, so the confirmation it asks for is theirs. */
export interface GateScope {
  readonly humanId: string;
  readonly runId: string;
}

/**
 * The provenance of one run: which untrusted results entered its context and when, which calls that makes
 * gated, and the per-run spotlight marker. Results are recorded as the executor answers them, tagged with
 * their turn; a call is judged by sources of EARLIER turns, which are what the model had read when it
 * made the call (calls of one turn are made together, before any of their results exist), and by the
 * content a hosted tool put into its own turn before it (see `UntrustedContent`), which the model had read
 * too.
 */
export class RunProvenance {
  /** The run's data-flow options at work, when it has any (see `LoopOptions.dataFlow`). */
  dataFlow: RunDataFlow | undefined;
  #marker: string | undefined;
  readonly #catalogue: Catalogue;
  readonly #options: ProvenanceOptions;
  /** Recorded as results arrive; digest and text are made only when a gate, a pause or a result needs them. */
  readonly #sources: LazySource[] = [];
  readonly #sensitive: ReadonlySet<string>;
  /** Result parts to spotlight in model requests (by identity: the conversation keeps these objects). */
  #spotlit: WeakSet<ToolResultPart> | undefined;
  #spotlightsAny: boolean | undefined;
  /** `countBefore`'s running count for the turn it was last asked about, over the first `read` sources. */
  #counted: { readonly turn: number; count: number; read: number } | undefined;
  /** Per tool name, what `record` needs (its trust and spotlighting): the run's options and catalogue are fixed. */
  readonly #recorded = new Map<string, RecordedAs>();
  /**
   * Per call id, how many hosted sources of its own turn stood before it (ids are unique in a run). Absent
   * until a turn carries hosted content, which most runs never see.
   */
  #precededBy: Map<string, number> | undefined;

  constructor(catalogue: Catalogue, options: ProvenanceOptions, sources: readonly TaintSource[] = []) {
    this.#catalogue = catalogue;
    this.#options = options;
    this.#sensitive = options.sensitive === undefined ? NONE_SENSITIVE : new Set(options.sensitive);
    for (const source of sources) {
      this.#sources.push({ turn: source.turn, part: undefined, hosted: undefined, made: source });
      if (source.precedes !== undefined) this.#precede(source.precedes);
    }
  }

  /**
   * Random per run and never persisted: an attacker cannot forge the closing delimiter around their text.
   * Drawn when first read (a run that spotlights nothing never reads it: random bytes cost a run of a
   * single call more than that call).
   */
  get marker(): string {
    this.#marker ??= nodeCrypto().randomBytes(9).toString('base64url');
    return this.#marker;
  }

  /**
   * Reads a conversation's tool results: those of untrusted tools that are not sources yet are added as turn
   * 0 when `admitUnknown` (a conversation the run starts from: all of them, errors too, since we cannot tell
   * a refusal from a tool's own error there), and known sources are marked for spotlighting (a resumed run,
   * whose messages are plain copies).
   */
  readConversation(messages: readonly Message[], admitUnknown: boolean): void {
    for (const message of messages) {
      if (message.role === 'assistant') {
        if (message.untrustedContent !== undefined && admitUnknown) this.#readHosted(message);
        continue;
      }
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (this.trustOf(part.name) === 'trusted') continue;
        const known = this.#sources.some((source) => matches(made(source), part));
        if (!known && !admitUnknown) continue;
        if (!known) this.#add(0, part);
        if (this.spotlights(part.name)) this.#spotlight(part);
      }
    }
  }

  trustOf(toolName: string): OutputTrust {
    return (
      this.#options.outputTrust?.[toolName] ??
      this.#definitionOf(toolName)?.outputTrust ??
      this.dataFlow?.trustOf(toolName) ??
      this.#options.defaultOutputTrust ??
      'untrusted'
    );
  }

  isSensitive(toolName: string): boolean {
    return this.#sensitive.has(toolName) || this.#definitionOf(toolName)?.sensitive === true;
  }

  /**
   * Whether any result of this run may be spotlit (so the model must be told about the marker): some tool
   * of the catalogue is spotlit (by the options or its definition) and not trusted. Only the tools the
   * options or definitions name are looked at: every run asks once, and a catalogue of hundreds of tools
   * usually spotlights none of them by definition (see `spotlitByDefinition`).
   */
  spotlightsAny(): boolean {
    this.#spotlightsAny ??= this.#anySpotlit();
    return this.#spotlightsAny;
  }

  #anySpotlit(): boolean {
    const { spotlight } = this.#options;
    if (spotlight === true) return true;
    const { names, byDefinition } = spotlitByDefinition(this.#catalogue);
    const untrusted = (name: string): boolean => this.trustOf(name) !== 'trusted';
    if (byDefinition.some(untrusted)) return true;
    return Array.isArray(spotlight) && spotlight.some((name) => names.has(name) && untrusted(name));
  }

  spotlights(toolName: string): boolean {
    if (this.trustOf(toolName) === 'trusted') return false;
    const { spotlight } = this.#options;
    if (spotlight === true) return true;
    if (Array.isArray(spotlight) && spotlight.includes(toolName)) return true;
    return this.#definitionOf(toolName)?.spotlight === true;
  }

  isSpotlit(part: ToolResultPart): boolean {
    return this.#spotlit?.has(part) === true;
  }

  /** Records an answered call whose content came from the tool (it ran, or threw a message of its own). */
  record(turn: number, result: ToolResultPart): void {
    let judged = this.#recorded.get(result.name);
    if (judged === undefined) {
      judged = { trusted: this.trustOf(result.name) === 'trusted', spotlit: this.spotlights(result.name) };
      this.#recorded.set(result.name, judged);
    }
    if (judged.trusted) return;
    this.#add(turn, result);
    if (judged.spotlit) this.#spotlight(result);
  }

  /**
   * Records what the provider's hosted tools put into the model's context during `turn`
   * (`ModelTurn.untrustedContent`): each entry is a source from where it stood, so the calls the model made
   * after it in the same turn are judged with it. Untrusted unless the application's `outputTrust` names its
   * kind as trusted (`defaultOutputTrust` is about the application's own tools, not the provider's).
   */
  recordUntrustedContent(turn: number, modelTurn: Pick<ModelTurn, 'content' | 'untrustedContent'>): void {
    for (const content of listOf(modelTurn.untrustedContent)) {
      if (this.#hostedTrusted(content)) continue;
      const precedes: string[] = [];
      // A place that is not a whole number (a hand-made or damaged mark) counts as the start: fail safe.
      const from = Number.isInteger(content.at) && content.at > 0 ? content.at : 0;
      for (let index = from; index < modelTurn.content.length; index += 1) {
        const part = modelTurn.content[index];
        if (part?.type === 'tool_call') precedes.push(part.id);
      }
      this.#sources.push({ turn, part: undefined, hosted: { content, precedes }, made: undefined });
      this.#precede(precedes);
    }
  }

  /** The untrusted sources a call of `turn` with this id was made after. */
  sourcesBefore(turn: number, callId?: string): TaintSource[] {
    const preceded = callId !== undefined && this.#precededBy?.has(callId) === true;
    return this.#sources
      .filter((source) => source.turn < turn || (preceded && precedes(source, callId as string)))
      .map(made);
  }

  /**
   * How many untrusted sources a call of `turn` was made after (cheap: nothing is hashed). Asked for every
   * journaled call, so counted incrementally: sources are only ever appended, and a turn's count only reads
   * the sources appended since it was last asked (reading all of them per call made a run O(calls²)).
   */
  countBefore(turn: number): number {
    const counted = this.#counted;
    if (counted === undefined || counted.turn !== turn) {
      this.#counted = { turn, count: 0, read: 0 };
      return this.countBefore(turn);
    }
    const sources = this.#sources;
    for (; counted.read < sources.length; counted.read += 1) {
      if ((sources[counted.read] as LazySource).turn < turn) counted.count += 1;
    }
    return counted.count;
  }

  /** The sources so far, listed (and hashed) only when the returned function is first called. */
  refsOnDemand(): () => TaintSourceRef[] {
    const fixed = [...this.#sources];
    let refs: TaintSourceRef[] | undefined;
    return () => {
      refs ??= fixed.map((source) => refOf(made(source)));
      return refs;
    };
  }

  /** Every source so far, with its text: what a paused run carries. */
  sources(): TaintSource[] {
    return this.#sources.map(made);
  }

  /** {@link countBefore}, with the hosted content of its own turn that a call with this id was made after. */
  countFor(turn: number, callId: string): number {
    const count = this.countBefore(turn);
    return this.#precededBy === undefined ? count : count + (this.#precededBy.get(callId) ?? 0);
  }

  /** Whether a call of this tool in this turn is gated: a gated tool, made after untrusted output. */
  mayGate(toolName: string, definition: ToolDefinition<never>, turn: number, callId: string): boolean {
    return (definition.irreversible || this.isSensitive(toolName)) && this.countFor(turn, callId) > 0;
  }

  /**
   * The gate of a call, or `undefined` when it needs none: its tool is neither irreversible nor sensitive,
   * or nothing untrusted had entered the context when the model made it.
   */
  gateOf(
    call: ToolCallPart,
    definition: ToolDefinition<never>,
    input: JsonValue,
    inputDigest: string,
    turn: number,
    scope: GateScope,
  ): CallGate | undefined {
    const gatedBecause = definition.irreversible ? 'irreversible' : this.isSensitive(call.name) ? 'sensitive' : null;
    if (gatedBecause === null) return undefined;
    const sources = this.sourcesBefore(turn, call.id);
    if (sources.length === 0) return undefined;
    const untrustedSources = sources.map(refOf);
    const request: ConfirmationRequest = {
      callId: call.id,
      toolName: call.name,
      turn,
      humanId: scope.humanId,
      runId: scope.runId,
      input,
      inputDigest,
      gatedBecause,
      untrustedSources,
      flaggedArguments: flaggedArguments(
        input,
        sources,
        this.#options.minVerbatimLength ?? DEFAULT_MIN_VERBATIM_LENGTH,
      ),
      taintDigest: jsonDigest(untrustedSources),
    };
    const gate: CallGate = { request };
    return gate;
  }

  /** The application's policy for a gated call (`pause` when it has none). */
  policyFor(request: ConfirmationRequest): TaintPolicy | Promise<TaintPolicy> {
    return this.#options.policy?.(request) ?? 'pause';
  }

  #spotlight(part: ToolResultPart): void {
    this.#spotlit ??= new WeakSet();
    this.#spotlit.add(part);
  }

  #add(turn: number, result: ToolResultPart): void {
    this.#sources.push({ turn, part: result, hosted: undefined, made: undefined });
  }

  /** A starting conversation's hosted content: sources of turn 0, like its tool results. */
  #readHosted(message: AssistantMessage): void {
    for (const content of listOf(message.untrustedContent)) {
      if (this.#hostedTrusted(content)) continue;
      const known = this.#sources.some((source) => matchesHosted(made(source), content));
      if (!known) this.#sources.push({ turn: 0, part: undefined, hosted: { content, precedes: [] }, made: undefined });
    }
  }

  #hostedTrusted(content: UntrustedContent): boolean {
    return this.#options.outputTrust?.[content.kind] === 'trusted';
  }

  #precede(callIds: readonly string[]): void {
    if (callIds.length === 0) return;
    this.#precededBy ??= new Map();
    for (const id of callIds) this.#precededBy.set(id, (this.#precededBy.get(id) ?? 0) + 1);
  }

  #definitionOf(toolName: string): ToolDefinition<never> | undefined {
    return this.#catalogue.get(toolName)?.definition;
  }
}

const NONE_SENSITIVE: ReadonlySet<string> = new Set();

interface RecordedAs {
  readonly trusted: boolean;
  readonly spotlit: boolean;
}

interface LazySource {
  readonly turn: number;
  /** The result as the executor made it: the circuit's own copy, which nothing changes afterwards. */
  readonly part: ToolResultPart | undefined;
  /** Or hosted content of the model's own turn, with the calls of that turn made after it. */
  readonly hosted: { readonly content: UntrustedContent; readonly precedes: readonly string[] } | undefined;
  made: TaintSource | undefined;
}

function made(source: LazySource): TaintSource {
  if (source.made === undefined && source.hosted !== undefined) {
    const { content, precedes } = source.hosted;
    // Read defensively: a mark in a stored conversation is the application's data, and a damaged one still taints.
    const text = typeof content.text === 'string' ? content.text : String(content.text ?? '');
    source.made = {
      turn: source.turn,
      callId: String(content.id),
      toolName: String(content.kind),
      outputDigest: jsonDigest(text),
      text,
      hosted: true,
      ...(precedes.length === 0 ? {} : { precedes }),
    };
  }
  if (source.made === undefined) {
    const part = source.part as ToolResultPart;
    const content = keptContentOf(part);
    source.made = {
      turn: source.turn,
      callId: part.callId,
      toolName: part.name,
      outputDigest: jsonDigest(content),
      text: searchableText(content),
    };
  }
  return source.made;
}

function matches(source: TaintSource, part: ToolResultPart): boolean {
  return (
    source.hosted !== true &&
    source.callId === part.callId &&
    source.toolName === part.name &&
    source.outputDigest === jsonDigest(keptContentOf(part))
  );
}

function matchesHosted(source: TaintSource, content: UntrustedContent): boolean {
  return (
    source.hosted === true &&
    source.callId === String(content.id) &&
    source.toolName === String(content.kind) &&
    source.text === (typeof content.text === 'string' ? content.text : String(content.text ?? ''))
  );
}

/** The marks of a turn or message; anything but a list of objects (damaged data) is read as far as it goes. */
function listOf(marks: readonly UntrustedContent[] | undefined): UntrustedContent[] {
  const list: unknown[] = Array.isArray(marks) ? marks : marks === undefined ? [] : [marks];
  return list.filter((mark): mark is UntrustedContent => typeof mark === 'object' && mark !== null);
}

/** Whether a hosted source stood before this call of its own turn. */
function precedes(source: LazySource, callId: string): boolean {
  if (source.hosted !== undefined) return source.hosted.precedes.includes(callId);
  return source.made?.precedes?.includes(callId) === true;
}

/** Per catalogue (immutable): its tool names, and those whose definition asks to be spotlit. */
interface SpotlitByDefinition {
  readonly names: ReadonlySet<string>;
  readonly byDefinition: readonly string[];
}

const spotlitByCatalogue = new WeakMap<Catalogue, SpotlitByDefinition>();

function spotlitByDefinition(catalogue: Catalogue): SpotlitByDefinition {
  let found = spotlitByCatalogue.get(catalogue);
  if (found === undefined) {
    found = {
      names: new Set(catalogue.names),
      byDefinition: catalogue.names.filter((name) => catalogue.get(name)?.definition.spotlight === true),
    };
    spotlitByCatalogue.set(catalogue, found);
  }
  return found;
}
