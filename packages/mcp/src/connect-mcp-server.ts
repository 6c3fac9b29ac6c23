import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  McpSubscription,
  Transport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import {
  type AnyToolDefinition,
  type Catalogue,
  type ConfirmationStore,
  createCatalogue,
  type ToolContext,
  type ToolDefinition,
  type ToolRefusal,
  type ToolResultOutput,
  toolError,
  toolRefusal,
} from '@toolcircuit/core';
import { answerRoots, type McpRoot, rootsCapability } from './client-roots.js';
import { eraOf, type McpEra, type McpProtocolMode, versionNegotiationOf } from './era/protocol-mode.js';
import { InvalidMcpServerError } from './errors/invalid-mcp-server-error.js';
import { GuardedConfirmations } from './guarded-confirmations.js';
import { listAllTools } from './list-all-tools.js';
import { type McpCallResult, mapMcpResult } from './map-mcp-result.js';
import type { McpDefinitionChange, McpEvent } from './mcp-events.js';
import { connectTransport, type McpServerSpec } from './mcp-server-spec.js';
import { callAsTask } from './tasks/call-as-task.js';
import { InMemoryMcpTaskStore, type McpTaskStore } from './tasks/mcp-task-store.js';
import { toolFingerprint } from './tool-fingerprint.js';
import {
  defaultToolPolicy,
  type McpToolAnnotations,
  type McpToolInfo,
  type McpToolPolicy,
  type McpToolPolicyDecision,
} from './tool-policy.js';

/** A server-initiated elicitation, routed to the application, which asks its human. */
export interface McpElicitation {
  readonly server: string;
  readonly params: ElicitRequest['params'];
  readonly signal: AbortSignal;
}

export interface ConnectMcpServerOptions {
  /** A short name for the server: in rights (`mcp:<name>`), events and messages. */
  readonly name: string;
  readonly server: McpServerSpec;
  /** Annotations → rights, irreversibility, untrusted output. Default {@link defaultToolPolicy}. */
  readonly policy?: McpToolPolicy;
  /** Prepended to every tool's catalogue name (e.g. `fs_`), to keep several servers' tools apart. */
  readonly prefix?: string;
  /**
   * Fingerprints pinned earlier (e.g. by `toolcircuit mcp import`), by MCP tool name. A tool whose current
   * definition differs is reported as changed right away and does not run until accepted.
   */
  readonly pins?: Readonly<Record<string, string>>;
  readonly onEvent?: (event: McpEvent) => void;
  /**
   * Answers the server's elicitation requests, by asking the human. Without it the client does not offer
   * elicitation, so servers cannot ask; nothing is ever answered automatically.
   */
  readonly onElicitation?: (request: McpElicitation) => Promise<ElicitResult>;
  /** Opts in to sampling (the server asking the application's model). Without it sampling is refused. */
  readonly onSampling?: (request: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
  /**
   * The roots (`file://` directories) the server may know about, answered to its `roots/list`. Without
   * them the client declares no roots capability. They inform the server; they confine nothing.
   */
  readonly roots?: readonly McpRoot[];
  /** Per-request timeout in ms (reset by progress notifications); default 60 000. */
  readonly requestTimeoutMs?: number;
  /**
   * When to list the tools again before a call, so that a definition changed without a `list_changed`
   * notification is caught before the call is sent:
   * - `every-call` (default): before every call. A read-only tool the server re-annotates as destructive
   *   is caught too, and does not run unconfirmed.
   * - `irreversible`: only before calls of tools pinned as irreversible (one request less per reversible
   *   call; a reversible tool changed silently then runs once under its old policy).
   * - `never`: rely on `list_changed` alone.
   * Calls that arrive while a listing is queued share it.
   */
  readonly verifyBeforeCall?: 'every-call' | 'irreversible' | 'never';
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /**
   * Which protocol revisions to speak (default `auto`: 2026-07-28 where the server offers it, else the 2025
   * era). The negotiated revision is reported in the `connected` event, on `connection.protocolVersion`, on
   * each imported definition (`protocol`) and so in the journal and traces.
   */
  readonly protocol?: McpProtocolMode;
  /**
   * Keeps the ids of task-augmented calls (the 2025-11-25 tasks extension) so a restarted worker collects a
   * task's result instead of calling the tool again (see {@link McpTaskStore}). With it, every tool whose
   * `execution.taskSupport` is `optional` or `required` runs as a task; without it only `required` ones do,
   * their ids kept in memory.
   */
  readonly tasks?: McpTaskStore;
  /** How long the server keeps a task and its result, in ms (default one hour). */
  readonly taskTtlMs?: number;
}

/** The MCP-specific facts kept on an imported tool's definition. */
export interface McpToolMetadata {
  readonly server: string;
  /** The tool's name on the server. */
  readonly name: string;
  readonly fingerprint: string;
  readonly annotations: McpToolAnnotations;
  /** From the policy: the output may carry text written by outsiders (see the prompt-injection defences). */
  readonly untrustedOutput: boolean;
  readonly outputSchema?: McpToolInfo['outputSchema'];
  /** The protocol revision the connection negotiated when the tool was imported. */
  readonly protocolVersion: string;
}

/** A catalogue entry that calls an MCP server; `mcp` carries where it comes from and its pinned fingerprint. */
export interface McpToolDefinition extends ToolDefinition<Record<string, unknown>> {
  readonly mcp: McpToolMetadata;
}

interface ToolState {
  readonly catalogueName: string;
  pinned: McpToolInfo;
  pinnedFingerprint: string;
  current: McpToolInfo | null;
  currentFingerprint: string | null;
  generation: number;
  definition: McpToolDefinition | undefined;
}

type OutputValidator = (value: unknown) => { readonly valid: boolean; readonly errorMessage?: string | undefined };

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_TASK_TTL_MS = 3_600_000;
const MAX_PROBE_TIMEOUT_MS = 10_000;

/** Connects to an MCP server and imports its tools, pinned. Close it with `close()`. */
export async function connectMcpServer(options: ConnectMcpServerOptions): Promise<McpConnection> {
  if (typeof options.name !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(options.name)) {
    throw new InvalidMcpServerError('name', 'give the server a short `name` of letters, digits, "_", "-" or ".".');
  }
  const client = new Client(options.clientInfo ?? { name: 'toolcircuit', version: '0.1.0' }, {
    // The probe waits at most 10 s: a stdio server that never answers requests it does not know is taken for
    // a 2025 one after that, rather than after a whole request timeout.
    versionNegotiation: versionNegotiationOf(
      options.protocol ?? 'auto',
      Math.min(options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_PROBE_TIMEOUT_MS),
    ),
    capabilities: {
      ...(options.onElicitation === undefined ? {} : { elicitation: { form: { applyDefaults: true } } }),
      ...(options.onSampling === undefined ? {} : { sampling: {} }),
      ...rootsCapability(options.roots),
    },
  });
  answerRoots(client, options.roots); // before connecting: a server may ask as soon as it is initialized
  const connection = new McpConnection(client, options);
  const transport = await connectTransport(client, options.server, 'server');
  try {
    await connection.start(transport);
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  return connection;
}

export class McpConnection {
  readonly name: string;
  readonly client: Client;
  readonly #options: ConnectMcpServerOptions;
  readonly #policy: McpToolPolicy;
  readonly #tools = new Map<string, ToolState>();
  readonly #byCatalogueName = new Map<string, ToolState>();
  readonly #guards = new Set<GuardedConfirmations>();
  readonly #validator = new AjvJsonSchemaValidator();
  readonly #outputValidators = new Map<string, OutputValidator>();
  #refreshing: Promise<void> = Promise.resolve();
  /** A listing queued behind the running one and not started yet. */
  #queued: Promise<void> | undefined;
  #transport: Transport | undefined;
  /** On 2026-07-28, the `subscriptions/listen` stream that carries `tools/list_changed`. */
  #subscription: McpSubscription | undefined;
  readonly #memoryTasks = new InMemoryMcpTaskStore();

  /** @internal Use {@link connectMcpServer}. */
  constructor(client: Client, options: ConnectMcpServerOptions) {
    this.client = client;
    this.name = options.name;
    this.#options = options;
    this.#policy = options.policy ?? defaultToolPolicy;
  }

  /** @internal */
  async start(transport: Transport): Promise<void> {
    this.#transport = transport;
    const { onElicitation, onSampling } = this.#options;
    if (onElicitation !== undefined) {
      this.client.setRequestHandler('elicitation/create', (request, ctx) =>
        onElicitation({ server: this.name, params: request.params, signal: ctx.mcpReq.signal }),
      );
    }
    if (onSampling !== undefined) {
      this.client.setRequestHandler('sampling/createMessage', (request, ctx) =>
        onSampling(request.params, ctx.mcpReq.signal),
      );
    }
    this.client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.refresh().catch(() => undefined);
    });
    this.#emit({ type: 'connected', server: this.name, protocolVersion: this.protocolVersion, era: this.era });
    // 2026-07-28 sends change notifications only on a stream the client asks for; without one, the listing
    // before each call (verifyBeforeCall) still catches a change.
    if (this.era === 'modern' && this.client.getServerCapabilities()?.tools?.listChanged === true) {
      this.#subscription = await this.client
        .listen({ toolsListChanged: true }, { timeout: this.#timeout() })
        .catch(() => undefined);
    }
    const tools = await listAllTools(this.client, this.#timeout());
    await this.#apply(tools, true);
  }

  /** The protocol revision negotiated with the server (`2026-07-28`, `2025-11-25`, …). */
  get protocolVersion(): string {
    const version = this.client.getNegotiatedProtocolVersion();
    if (version === undefined) throw new Error('unreachable: the MCP connection has not negotiated a revision yet');
    return version;
  }

  /** `modern` (2026-07-28 and later: stateless, `input_required`) or `legacy` (the 2025 era). */
  get era(): McpEra {
    return eraOf(this.protocolVersion);
  }

  /** The imported tools, as their pinned definitions (a changed tool stays, and refuses to run). */
  tools(): McpToolDefinition[] {
    const definitions: McpToolDefinition[] = [];
    for (const state of this.#tools.values()) if (state.definition !== undefined) definitions.push(state.definition);
    return definitions;
  }

  /** A catalogue of this server's tools, after `extra` tools of your own. Build it again after `tool-added`. */
  catalogue(extra: readonly AnyToolDefinition[] = []): Catalogue {
    return createCatalogue([...extra, ...this.tools()]);
  }

  /** Tools whose definition changed since they were pinned and that the application has not accepted. */
  changes(): McpDefinitionChange[] {
    const changes: McpDefinitionChange[] = [];
    for (const state of this.#tools.values()) if (isChanged(state)) changes.push(this.#changeOf(state));
    return changes;
  }

  /** Fingerprints of the pinned definitions, by MCP name (what `pins` takes back). */
  pins(): Record<string, string> {
    const pins: Record<string, string> = {};
    for (const [name, state] of this.#tools) pins[name] = state.pinnedFingerprint;
    return pins;
  }

  /**
   * Accepts a tool's current definition (catalogue name): it becomes the pinned one and the tool runs again.
   * Approvals given before stay void. Rebuild the catalogue afterwards so the model sees the new description.
   */
  accept(toolName: string): void {
    const state = this.#byCatalogueName.get(toolName);
    if (state === undefined || state.current === null || state.currentFingerprint === null) {
      throw new InvalidMcpServerError('accept', `"${toolName}" is not a tool server "${this.name}" offers now.`);
    }
    state.pinned = state.current;
    state.pinnedFingerprint = state.currentFingerprint;
    state.generation += 1;
    state.definition = this.#define(state);
    this.#emit({ type: 'definition-accepted', server: this.name, toolName, fingerprint: state.pinnedFingerprint });
  }

  /**
   * Wraps a session's confirmation store so that approvals of this server's tools hold only for the
   * definition they were given under: `createSession({ confirmations: mcp.guardConfirmations(store) })`.
   */
  guardConfirmations(inner: ConfirmationStore): ConfirmationStore {
    const guard = new GuardedConfirmations(inner, {
      generation: (toolName) => this.#byCatalogueName.get(toolName)?.generation,
      isChanged: (toolName) => {
        const state = this.#byCatalogueName.get(toolName);
        return state !== undefined && isChanged(state);
      },
    });
    this.#guards.add(guard);
    return guard;
  }

  /** Lists the server's tools again and compares them with the pins (also done on `list_changed`). */
  refresh(): Promise<void> {
    const next = this.#refreshing.then(async () => {
      if (this.#queued === next) this.#queued = undefined;
      try {
        await this.#apply(await listAllTools(this.client, this.#timeout()), false);
      } catch (error) {
        this.#emit({ type: 'list-failed', server: this.name, message: messageOf(error) });
        throw error;
      }
    });
    this.#refreshing = next.catch(() => undefined);
    return next;
  }

  /**
   * A listing that starts after this moment: the one already queued behind a running listing, if any (a
   * burst of calls shares one), else a new one.
   */
  #queuedRefresh(): Promise<void> {
    this.#queued ??= this.refresh();
    return this.#queued;
  }

  #verifiesBefore(decision: McpToolPolicyDecision): boolean {
    const when = this.#options.verifyBeforeCall ?? 'every-call';
    return when === 'every-call' || (when === 'irreversible' && decision.irreversible);
  }

  async close(): Promise<void> {
    await this.#subscription?.close().catch(() => undefined);
    await this.client.close();
    await this.#transport?.close().catch(() => undefined);
  }

  async #apply(tools: readonly McpToolInfo[], initial: boolean): Promise<void> {
    const seen = new Set<string>();
    for (const tool of tools) {
      seen.add(tool.name);
      const fingerprint = toolFingerprint(tool);
      const state = this.#tools.get(tool.name);
      if (state === undefined) {
        this.#add(tool, fingerprint, initial);
        continue;
      }
      const wasChanged = isChanged(state);
      const previousCurrent = state.currentFingerprint;
      state.current = tool;
      state.currentFingerprint = fingerprint;
      if (isChanged(state) && (!wasChanged || previousCurrent !== fingerprint)) await this.#reportChange(state);
    }
    for (const [name, state] of this.#tools) {
      if (seen.has(name) || state.current === null) continue;
      state.current = null;
      state.currentFingerprint = null;
      await this.#reportChange(state);
    }
  }

  #add(tool: McpToolInfo, fingerprint: string, initial: boolean): void {
    const catalogueName = `${this.#options.prefix ?? ''}${tool.name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
    if (this.#byCatalogueName.has(catalogueName)) {
      this.#emit({
        type: 'tool-skipped',
        server: this.name,
        mcpName: tool.name,
        reason: `its catalogue name "${catalogueName}" is already taken by another tool of this server`,
      });
      return;
    }
    const pinnedFingerprint = this.#options.pins?.[tool.name] ?? fingerprint;
    const state: ToolState = {
      catalogueName,
      pinned: tool,
      pinnedFingerprint,
      current: tool,
      currentFingerprint: fingerprint,
      generation: 0,
      definition: undefined,
    };
    const definition = this.#define(state);
    if (definition === undefined) return;
    state.definition = definition;
    this.#tools.set(tool.name, state);
    this.#byCatalogueName.set(catalogueName, state);
    if (!initial) this.#emit({ type: 'tool-added', server: this.name, toolName: catalogueName, fingerprint });
    if (isChanged(state)) void this.#reportChange(state);
  }

  /** The catalogue entry for the pinned definition, or `undefined` (reported) when toolcircuit cannot use it. */
  #define(state: ToolState): McpToolDefinition | undefined {
    const tool = state.pinned;
    const pinnedFingerprint = state.pinnedFingerprint;
    const decision: McpToolPolicyDecision = this.#policy(tool, { server: this.name });
    const definition: McpToolDefinition = Object.freeze({
      name: state.catalogueName,
      description: tool.description ?? tool.title ?? tool.annotations?.title ?? tool.name,
      inputSchema: tool.inputSchema as never,
      right: decision.right,
      irreversible: decision.irreversible,
      // The server's own hint that the output may carry outsiders' text wins over the loop's
      // `provenance.defaultOutputTrust`; only `provenance.outputTrust[name]` (the application, for this one
      // tool) overrides it. `openWorldHint: false` claims nothing: the loop's default applies.
      ...(decision.untrustedOutput ? { outputTrust: 'untrusted' as const } : {}),
      ...(decision.timeoutMs === undefined ? {} : { timeoutMs: decision.timeoutMs }),
      protocol: Object.freeze({
        name: 'mcp',
        revision: this.protocolVersion,
        role: 'client' as const,
        peer: this.name,
      }),
      // The tool search knows which server a tool is from (and can be restricted to it), and its title.
      search: Object.freeze({
        namespace: this.name,
        ...(tool.title === undefined || tool.title === '' ? {} : { aliases: Object.freeze([tool.title]) }),
      }),
      run: (input: Record<string, unknown>, context: ToolContext) =>
        this.#call(state, decision, pinnedFingerprint, input, context),
      mcp: Object.freeze({
        server: this.name,
        name: tool.name,
        fingerprint: state.pinnedFingerprint,
        annotations: Object.freeze({ ...(tool.annotations ?? {}) }),
        untrustedOutput: decision.untrustedOutput,
        protocolVersion: this.protocolVersion,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      }),
    });
    try {
      createCatalogue([definition]); // the same checks as the application's catalogue, one tool at a time
    } catch (error) {
      this.#emit({ type: 'tool-skipped', server: this.name, mcpName: tool.name, reason: messageOf(error) });
      return undefined;
    }
    return definition;
  }

  async #call(
    state: ToolState,
    decision: McpToolPolicyDecision,
    definedFor: string,
    input: Record<string, unknown>,
    context: ToolContext,
  ): Promise<ToolResultOutput | ToolRefusal> {
    if (this.#verifiesBefore(decision)) await this.#queuedRefresh();
    // Refusals, not error results: nothing was sent, and the journal must say so (`refused`, not `executed`).
    if (isChanged(state)) return toolRefusal(changedText(state, this.name));
    // An entry from a catalogue built before `accept`: its policy (irreversible or not) was derived from the
    // old definition, so it must not run the new one.
    if (definedFor !== state.pinnedFingerprint) {
      return toolRefusal(
        `The definition of "${state.catalogueName}" on MCP server "${this.name}" was replaced; this catalogue is out of date and the call was not run.`,
      );
    }
    const result: McpCallResult = this.#runsAsTask(state)
      ? await callAsTask(this.client, {
          server: this.name,
          toolName: state.pinned.name,
          input,
          runId: context.runId,
          callId: context.callId,
          signal: context.signal,
          timeoutMs: this.#timeout(),
          ttlMs: this.#options.taskTtlMs ?? DEFAULT_TASK_TTL_MS,
          store: this.#options.tasks ?? this.#memoryTasks,
          onTask: ({ taskId, resumed }) =>
            this.#emit({
              type: 'task',
              server: this.name,
              toolName: state.catalogueName,
              callId: context.callId,
              taskId,
              resumed,
            }),
        })
      : await this.client.request(
          { method: 'tools/call', params: { name: state.pinned.name, arguments: input } },
          {
            signal: context.signal,
            timeout: this.#timeout(),
            resetTimeoutOnProgress: true,
            onprogress: (progress) =>
              this.#emit({
                type: 'progress',
                server: this.name,
                toolName: state.catalogueName,
                callId: context.callId,
                progress: progress.progress,
                ...(progress.total === undefined ? {} : { total: progress.total }),
                ...(progress.message === undefined ? {} : { message: progress.message }),
              }),
          },
        );
    const outputSchema = state.pinned.outputSchema;
    if (outputSchema === undefined || result.isError === true) return mapMcpResult(result, false);
    if (result.structuredContent === undefined) {
      return toolError(
        `Server "${this.name}" declared an output schema for "${state.pinned.name}" but returned no structured content.`,
      );
    }
    const check = this.#outputValidator(state).call(undefined, result.structuredContent);
    if (!check.valid) {
      return toolError(
        `Server "${this.name}" returned structured content for "${state.pinned.name}" that does not match its output schema: ${check.errorMessage ?? 'invalid'}.`,
      );
    }
    return mapMcpResult(result, true);
  }

  /** Tasks exist on the 2025-11-25 wire, for servers that take task-augmented `tools/call`. */
  #runsAsTask(state: ToolState): boolean {
    const support = (state.pinned as McpToolInfo & { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
    if (support !== 'required' && !(support === 'optional' && this.#options.tasks !== undefined)) return false;
    return this.era === 'legacy' && this.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
  }

  #outputValidator(state: ToolState): OutputValidator {
    const cached = this.#outputValidators.get(state.pinnedFingerprint);
    if (cached !== undefined) return cached;
    const validator: OutputValidator = this.#validator.getValidator(state.pinned.outputSchema as never);
    this.#outputValidators.set(state.pinnedFingerprint, validator);
    return validator;
  }

  async #reportChange(state: ToolState): Promise<void> {
    state.generation += 1;
    let voidedApprovals = 0;
    for (const guard of this.#guards) voidedApprovals += await guard.voidBefore(state.catalogueName, state.generation);
    this.#emit({ type: 'definition-changed', voidedApprovals, ...this.#changeOf(state) });
  }

  #changeOf(state: ToolState): McpDefinitionChange {
    return {
      server: this.name,
      toolName: state.catalogueName,
      pinnedFingerprint: state.pinnedFingerprint,
      currentFingerprint: state.currentFingerprint,
      pinned: state.pinned,
      current: state.current,
    };
  }

  #timeout(): number {
    return this.#options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  #emit(event: McpEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // An observer's failure must not break the connection or a call.
    }
  }
}

function isChanged(state: ToolState): boolean {
  return state.currentFingerprint !== state.pinnedFingerprint;
}

function changedText(state: ToolState, server: string): string {
  if (state.current === null) {
    return `The tool "${state.catalogueName}" is no longer offered by MCP server "${server}"; it was not run.`;
  }
  return (
    `The definition of "${state.catalogueName}" on MCP server "${server}" changed after it was approved; ` +
    'it was not run, and it will not run until the application accepts the new definition.'
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
