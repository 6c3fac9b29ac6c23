import { andThen, type Eventually } from '../async/eventually.js';
import { type Catalogue, type CatalogueEntry, createCatalogue } from '../catalogue/catalogue.js';
import { everySession, type ToolContext, type ToolDefinition, type ToolOutput, toolError } from '../catalogue/tool.js';
import type { JsonValue } from '../json/json.js';
import type {
  Message,
  ResultDataFlow,
  ToolCallPart,
  ToolResultContent,
  ToolResultPart,
  VouchedValue,
} from '../messages/messages.js';
import { toolResultText } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';
import type { OutputTrust } from '../provenance/provenance-options.js';
import { leavesAt, pointerSegments } from './argument-paths.js';
import { type BuiltInEntries, builtInEntries, DEFAULT_EXTRACT_TOOL, DEFAULT_PLAN_TOOL } from './built-in-tools.js';
import type { DataFlowOptions, SinkQuery, TrustedOnly } from './data-flow-options.js';
import type { CheckedArgument, DataFlowReport, ReferencedArgument, TrustedOrigin } from './data-flow-report.js';
import {
  planFrozenText,
  plannedText,
  quarantinedText,
  unplannedCallText,
  untrustedValueText,
} from './data-flow-texts.js';
import { Documents } from './documents.js';
import type { FlowProvenance } from './flow-provenance.js';
import { readerAnswer, readerRequest } from './reader-request.js';
import { TrustedValues } from './trusted-values.js';

/** What the data-flow options say about one call, before the confirmation gate. */
export type FlowCheck =
  | { readonly kind: 'pass'; readonly report: DataFlowReport | undefined }
  /** A gated call outside the frozen plan: refused without asking. */
  | { readonly kind: 'unplanned'; readonly report: DataFlowReport; readonly message: string }
  /**
   * A value at a trusted-only path is in no trusted source: refused, or held for the human to vouch for the
   * values at `report.vouchFor` when there are any (none when the sink's policy failed).
   */
  | { readonly kind: 'untrusted'; readonly report: DataFlowReport; readonly message: string };

/**
 * The data flow of one run: its trusted values (what the human wrote, the system text, trusted tools'
 * outputs, values vouched for), its quarantined documents and the values extracted from them, and its plan.
 * It lives beside the run's provenance (`RunProvenance.dataFlow`), which the executor already holds, and
 * keeps what it must carry on with in the results it makes (`ToolResultPart.dataFlow`): a run rebuilt from
 * its conversation (resumed, continued, recovered) reads it back with {@link readConversation}.
 */
export class RunDataFlow {
  readonly #catalogue: Catalogue;
  readonly #provenance: FlowProvenance;
  readonly #options: DataFlowOptions;
  readonly #trusted = new TrustedValues();
  readonly #documents = new Documents();
  /** The gated tools the plan allows; `undefined` when the run has no plan. */
  readonly #planned: Set<string> | undefined;
  readonly #quarantined: ReadonlySet<string>;
  readonly #planTool: string | undefined;
  readonly #extractTool: string | undefined;
  #builtIns: Map<string, CatalogueEntry> | undefined;
  /** What a call's result must keep (an extraction, a declaration, vouched values), until it is made. */
  readonly #kept = new Map<string, ResultDataFlow>();
  #offered: { readonly tools: readonly ToolDeclaration[]; readonly with: readonly ToolDeclaration[] } | undefined;

  constructor(catalogue: Catalogue, provenance: FlowProvenance, options: DataFlowOptions, system?: string) {
    this.#catalogue = catalogue;
    this.#provenance = provenance;
    this.#options = options;
    this.#planned = options.plan === undefined ? undefined : new Set(options.plan.tools ?? []);
    this.#planTool = options.plan?.declare === true ? (options.plan.toolName ?? DEFAULT_PLAN_TOOL) : undefined;
    this.#quarantined = new Set(options.quarantine?.tools ?? []);
    this.#extractTool =
      options.quarantine === undefined ? undefined : (options.quarantine.extractToolName ?? DEFAULT_EXTRACT_TOOL);
    if (typeof system === 'string') this.#trusted.addText(system, SYSTEM);
    for (const value of options.vouched ?? []) this.#trusted.addValue(value, APPLICATION);
  }

  /**
   * Reads a conversation the run starts or goes on from: the human's messages and the system messages are
   * trusted, so are the results of trusted tools (not their errors, which may quote the model), and what the
   * run's data-flow options kept with results comes back (documents, extracted and vouched values, plan).
   */
  readConversation(messages: readonly Message[]): void {
    for (const [index, message] of messages.entries()) {
      if (message.role === 'user') this.#trusted.addText(userText(message.content), { kind: 'user', message: index });
      else if (message.role === 'system') this.#trusted.addText(String(message.content), SYSTEM);
      else if (message.role === 'tool') this.readResults(message.content);
    }
  }

  /**
   * Results the run already has: a conversation's replies (`turn` 0: before anything this run asks), or a
   * paused turn's answered calls (its turn: they count for the calls of later turns, as they did).
   */
  readResults(results: readonly (ToolResultPart | null)[], turn = 0): void {
    for (const result of results) if (result !== null && typeof result === 'object') this.#readResult(result, turn);
  }

  /** The trust of a built-in tool's output (`undefined` for any other tool): a plan declaration is the circuit's. */
  trustOf(toolName: string): OutputTrust | undefined {
    return toolName === this.#planTool ? 'trusted' : undefined;
  }

  /** The run's own entry for a built-in tool of this name, or `undefined`. */
  builtIn(name: string): CatalogueEntry | undefined {
    if (name !== this.#planTool && name !== this.#extractTool) return undefined;
    this.#builtIns ??= this.#makeBuiltIns();
    return this.#builtIns.get(name);
  }

  /** The tools a step offers, with the built-in ones after them (the same array for the same step tools). */
  offered(tools: readonly ToolDeclaration[]): readonly ToolDeclaration[] {
    if (this.#planTool === undefined && this.#extractTool === undefined) return tools;
    if (this.#offered?.tools === tools) return this.#offered.with;
    this.#builtIns ??= this.#makeBuiltIns();
    const extra = [...this.#builtIns.values()].map((entry) => entry.declaration);
    const names = new Set(tools.map((tool) => tool.name));
    const offered = Object.freeze([...tools, ...extra.filter((tool) => !names.has(tool.name))]);
    this.#offered = { tools, with: offered };
    return offered;
  }

  /** Whether any argument may hold a reference to resolve (an extraction has named values). */
  get resolves(): boolean {
    return this.#documents.any;
  }

  resolve(input: JsonValue): { input: JsonValue; references: ReferencedArgument[]; unknown: string[] } {
    return this.#documents.resolve(input);
  }

  handles(): string[] {
    return this.#documents.handles();
  }

  /**
   * The plan, then the trusted-only paths: a gated call (made after untrusted content arrived) to a tool
   * the frozen plan leaves out is refused; a value at a trusted-only path must be found in a trusted source.
   */
  check(
    call: ToolCallPart,
    definition: ToolDefinition<never>,
    input: JsonValue,
    references: readonly ReferencedArgument[],
    turn: number,
  ): Eventually<FlowCheck> {
    const refs = references.length === 0 ? {} : { references };
    const planned = this.#planned;
    if (
      planned !== undefined &&
      !planned.has(call.name) &&
      this.#provenance.mayGate(call.name, definition, turn, call.id)
    ) {
      const plan = [...planned];
      return {
        kind: 'unplanned',
        report: { ...refs, refusedBy: 'plan', plan },
        message: unplannedCallText(call.name, plan),
      };
    }
    const rule = this.#ruleOf(call.name, definition);
    if (rule === undefined) return { kind: 'pass', report: references.length === 0 ? undefined : { references } };
    if (typeof rule !== 'function') return this.#checkPaths(call.name, input, rule, references, turn);
    const query: SinkQuery = {
      toolName: call.name,
      input,
      references,
      isTrusted: (value) => this.#trusted.find(value, turn) !== undefined,
    };
    let paths: readonly string[] | Promise<readonly string[]>;
    try {
      paths = rule(query);
    } catch {
      return this.#policyFailed(call.name, references);
    }
    return andThen(
      Promise.resolve(paths).catch(() => undefined),
      (listed): FlowCheck =>
        Array.isArray(listed)
          ? this.#checkPaths(call.name, input, listed, references, turn)
          : this.#policyFailed(call.name, references),
    );
  }

  /** Values the human vouched for when deciding this call: trusted from now on, and kept with its result. */
  vouch(values: readonly VouchedValue[], by: string, callId: string): void {
    if (values.length === 0) return;
    for (const { path, value } of values) this.#trusted.addValue(value, { kind: 'vouched', by, callId, path });
    const kept = this.#kept.get(callId);
    this.#kept.set(callId, { ...kept, vouched: [...(kept?.vouched ?? []), ...values], vouchedBy: by });
  }

  /**
   * The result part of an answered call, and what the run learns from it: a quarantined tool's output is
   * kept aside under a handle and the model is sent the handle; a trusted tool's output joins the trusted
   * values; what the call left to keep (an extraction, a declaration, vouched values) goes with the result.
   */
  resultOf(
    call: ToolCallPart,
    turn: number,
    verdict: { readonly ran: boolean; readonly executed: boolean },
    content: ToolResultContent,
    isError: boolean,
  ): ToolResultPart {
    const { ran, executed } = verdict;
    let dataFlow = this.#kept.get(call.id);
    if (dataFlow !== undefined) this.#kept.delete(call.id);
    let shown = content;
    if (ran && this.#quarantined.has(call.name)) {
      const handle = this.#documents.nextHandle();
      this.#documents.add({ handle, toolName: call.name, callId: call.id, content });
      shown = quarantinedText(
        handle,
        call.name,
        toolResultText(content).length,
        this.#extractTool ?? DEFAULT_EXTRACT_TOOL,
      );
      dataFlow = { ...dataFlow, quarantined: { handle, content } };
    } else if (executed && !isError && this.#provenance.trustOf(call.name) === 'trusted') {
      this.#addTrusted(content, { kind: 'tool', toolName: call.name, callId: call.id }, turn);
    }
    const result: ToolResultPart = { type: 'tool_result', callId: call.id, name: call.name, content: shown, isError };
    return dataFlow === undefined ? result : { ...result, dataFlow };
  }

  #readResult(result: ToolResultPart, turn: number): void {
    const kept = result.dataFlow;
    if (kept !== undefined && kept !== null && typeof kept === 'object') {
      const { quarantined, extracted, vouched, planned } = kept;
      if (quarantined !== undefined && typeof quarantined?.handle === 'string') {
        this.#documents.add({
          handle: quarantined.handle,
          toolName: String(result.name),
          callId: String(result.callId),
          content: quarantined.content,
        });
      }
      if (extracted !== undefined && typeof extracted?.handle === 'string' && typeof extracted.values === 'object') {
        this.#documents.restore(extracted.handle, extracted.values ?? {});
      }
      if (Array.isArray(vouched)) {
        const by = typeof kept.vouchedBy === 'string' ? kept.vouchedBy : '';
        for (const item of vouched) {
          if (!isVouchable(item?.value)) continue;
          const path = typeof item.path === 'string' ? item.path : '';
          this.#trusted.addValue(item.value, { kind: 'vouched', by, callId: String(result.callId), path });
        }
      }
      if (Array.isArray(planned) && this.#planned !== undefined) {
        for (const name of planned) if (typeof name === 'string') this.#planned.add(name);
      }
    }
    if (
      result.isError !== true &&
      kept?.quarantined === undefined &&
      this.#provenance.trustOf(result.name) === 'trusted'
    ) {
      this.#addTrusted(
        result.content,
        { kind: 'tool', toolName: String(result.name), callId: String(result.callId) },
        turn,
      );
    }
  }

  #addTrusted(content: ToolResultContent, origin: TrustedOrigin, turn: number): void {
    if (typeof content === 'string') {
      this.#trusted.addText(content, origin, turn);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (part?.type === 'text') this.#trusted.addText(part.text, origin, turn);
      else if (part?.type === 'json') this.#trusted.addJson(part.value, origin, turn);
    }
  }

  #ruleOf(name: string, definition: ToolDefinition<never>): TrustedOnly | undefined {
    const byOptions = this.#options.trustedOnly;
    if (byOptions !== undefined && Object.hasOwn(byOptions, name)) return byOptions[name];
    return definition.trustedOnly;
  }

  #checkPaths(
    name: string,
    input: JsonValue,
    paths: readonly string[],
    references: readonly ReferencedArgument[],
    turn: number,
  ): FlowCheck {
    const checked: CheckedArgument[] = [];
    const seen = new Set<string>();
    const vouchFor: string[] = [];
    for (const path of paths) {
      const segments = pointerSegments(path);
      if (segments === undefined) return this.#policyFailed(name, references);
      for (const leaf of leavesAt(input, segments)) {
        if (seen.has(leaf.path)) continue;
        seen.add(leaf.path);
        const trustedIn = leaf.tooDeep === true ? undefined : this.#trusted.find(leaf.value, turn);
        checked.push({ path: leaf.path, value: leaf.value, ...(trustedIn === undefined ? {} : { trustedIn }) });
        if (trustedIn === undefined) vouchFor.push(leaf.path);
      }
    }
    const refs = references.length === 0 ? {} : { references };
    if (vouchFor.length === 0) return { kind: 'pass', report: { ...refs, checked } };
    return {
      kind: 'untrusted',
      report: { ...refs, checked, refusedBy: 'trusted-only', vouchFor },
      message: untrustedValueText(name, vouchFor),
    };
  }

  /** A sink policy that threw, rejected or answered something other than a list of pointers: refused. */
  #policyFailed(name: string, references: readonly ReferencedArgument[]): FlowCheck {
    return {
      kind: 'untrusted',
      report: { ...(references.length === 0 ? {} : { references }), refusedBy: 'trusted-only', vouchFor: [] },
      message: `This call to "${name}" did not run: the application's check of its arguments failed. Do not retry it; tell the user.`,
    };
  }

  #makeBuiltIns(): Map<string, CatalogueEntry> {
    const gated = this.#catalogue.names.filter((name) => {
      const definition = this.#catalogue.get(name)?.definition;
      return definition !== undefined && (definition.irreversible || this.#provenance.isSensitive(name));
    });
    const planTool = this.#planTool;
    const extractTool = this.#extractTool;
    const entries: BuiltInEntries = builtInEntries(
      this.#catalogue,
      planTool === undefined || gated.length === 0 ? undefined : { name: planTool, gated },
      extractTool,
    );
    const made = new Map<string, CatalogueEntry>();
    if (entries.plan !== undefined && planTool !== undefined) {
      made.set(
        planTool,
        perRun(entries.plan, (input, context) => this.#declare(input, context)),
      );
    }
    if (entries.extract !== undefined && extractTool !== undefined) {
      made.set(
        extractTool,
        perRun(entries.extract, (input, context) => this.#extract(input, context)),
      );
    }
    return made;
  }

  #declare(input: unknown, context: ToolContext): ToolOutput {
    if (this.#provenance.countFor(context.turn, context.callId) > 0) return toolError(planFrozenText());
    const tools = (input as { tools?: unknown }).tools;
    const names = Array.isArray(tools) ? tools.filter((name): name is string => typeof name === 'string') : [];
    for (const name of names) this.#planned?.add(name);
    this.#keep(context.callId, { planned: names });
    return plannedText(names);
  }

  async #extract(input: unknown, context: ToolContext): Promise<ToolOutput> {
    const { handle, fields, instructions } = input as { handle: string; fields: JsonValue; instructions?: string };
    const document = this.#documents.get(handle);
    if (document === undefined) {
      const held = this.#documents.handles();
      return toolError(
        `There is no document ${handle} in this conversation (documents: ${held.length === 0 ? 'none' : held.join(', ')}).`,
      );
    }
    let validator: Catalogue;
    try {
      validator = createCatalogue([
        {
          name: 'extraction',
          description: 'The fields to extract.',
          inputSchema: fields as never,
          right: everySession,
          irreversible: false,
          run: () => undefined,
        },
      ]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return toolError(
        `The fields are not a usable JSON Schema of an object (${reason.slice(0, 300)}). Send a schema of type "object" with "properties".`,
      );
    }
    const reader = this.#options.quarantine?.reader;
    if (reader === undefined) return toolError('No reader is set up for documents in this conversation.');
    let answer: unknown;
    try {
      answer = readerAnswer(
        await reader.generate(readerRequest(document.content, fields, instructions, context.signal)),
      );
    } catch (error) {
      // The reader's own error may quote the document: only its kind is reported.
      return toolError(
        `The reader could not read ${handle} (${error instanceof Error ? error.name : 'error'}). Try again later, or ask the user.`,
      );
    }
    const validation = answer === undefined ? undefined : await validator.validate('extraction', answer);
    if (validation === undefined || !validation.ok) {
      return toolError(
        `The reader's answer for ${handle} did not fit the fields you asked for, so nothing was extracted. Ask for fewer or simpler fields, or ask the user.`,
      );
    }
    const { shown, values } = this.#documents.name(document, validation.value as JsonValue);
    this.#keep(context.callId, { extracted: { handle, values } });
    return { handle, values: shown };
  }

  #keep(callId: string, data: ResultDataFlow): void {
    this.#kept.set(callId, { ...this.#kept.get(callId), ...data });
  }
}

const SYSTEM: TrustedOrigin = Object.freeze({ kind: 'system' });
const APPLICATION: TrustedOrigin = Object.freeze({ kind: 'application' });

function perRun(
  entry: CatalogueEntry,
  run: (input: unknown, context: ToolContext) => ToolOutput | Promise<ToolOutput>,
): CatalogueEntry {
  return Object.freeze({
    declaration: entry.declaration,
    validate: entry.validate,
    definition: Object.freeze({ ...entry.definition, run: run as ToolDefinition<never>['run'] }),
  });
}

function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { text: string } => typeof (part as { text?: unknown })?.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

function isVouchable(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}
