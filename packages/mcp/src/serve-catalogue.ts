import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type {
  AuthInfo,
  CallToolResult,
  ClientCapabilities,
  ElicitResult,
  Implementation,
  InputRequiredResult,
  RequestId,
  ServerCapabilities,
  ServerContext,
  Tool,
} from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import {
  argumentDigest,
  type Catalogue,
  confirmationFor,
  executeCall,
  isAuthorized,
  type Journal,
  type Session,
  type ToolCallPart,
} from '@toolcircuit/core';
import {
  type ConfirmationState,
  confirmByInputRequired,
  SpentConfirmations,
  TAINT_DIGEST_META_KEY,
} from './era/input-required-confirmation.js';
import { journalWithProtocol } from './era/journal-with-protocol.js';
import { eraOf, type McpEra, MODERN_REVISION } from './era/protocol-mode.js';
import { type StdioServing, serveStdioBothEras } from './era/serve-stdio-both-eras.js';
import { sessionOfAuthInfo } from './serve-auth/authenticated-session.js';
import { supportsFormElicitation } from './served/client-capabilities.js';
import { confirmationQuestion } from './served/confirmation-question.js';
import { withDeclaredOutput } from './served/declared-output.js';
import { pageOf } from './served/page-of.js';
import { registerCompletion } from './served/register-completion.js';
import { registerPrompts } from './served/register-prompts.js';
import { registerResources } from './served/register-resources.js';
import { withServedCall } from './served/served-call.js';
import type { ServedPrompt } from './served/served-prompts.js';
import type { ServedResource, ServedResourceTemplate } from './served/served-resources.js';
import { type ServedToolExtras, servedToolListing } from './served/served-tool-listing.js';
import { toMcpResult } from './to-mcp-result.js';

/** Who is calling, as the transport authenticated them. Nothing here comes from the request's body. */
export interface McpClientIdentity {
  readonly transport: 'stdio' | 'http';
  /** What the HTTP server's `authenticate` returned for this request; absent over stdio. */
  readonly authInfo?: AuthInfo;
  /** The session `serveCatalogueHttp`'s `authenticateSession` returned for this request (return it from `sessionFor`). */
  readonly session?: Session;
  /** The Streamable HTTP session id: bookkeeping only, it proves nothing about who calls. */
  readonly mcpSessionId?: string;
  /** The protocol revision of the call (`2026-07-28`, or the 2025-era one the connection negotiated). */
  readonly protocolVersion?: string;
}

export interface ServeCatalogueOptions {
  /**
   * The application's mapping from the transport's authenticated identity to a toolcircuit session (its
   * rights and its human's confirmations). Called for every `tools/call`; `undefined` refuses the call.
   * Over stdio the identity is the process that started the server: map it to whom you started it for.
   */
  readonly sessionFor: (identity: McpClientIdentity) => Session | undefined | Promise<Session | undefined>;
  readonly journal?: Journal;
  /** Default timeout of a tool run (tools' own `timeoutMs` wins). */
  readonly timeoutMs?: number;
  /**
   * How long the client's human has to answer the confirmation of an irreversible call, in ms (default
   * 60 000). No answer in time is no confirmation: the call is refused and journaled as such.
   */
  readonly confirmationTimeoutMs?: number;
  /**
   * The key (at least 32 bytes) that signs the confirmation question's `requestState` on the 2026-07-28
   * revision, where the client's retry carries the human's answer. Default: random per process, so the
   * answer must come back to the process that asked; give every instance the same key to serve from several.
   */
  readonly requestStateKey?: Uint8Array | string;
  /** The server's name and version, and optionally its title, icons and website, as clients show them. */
  readonly serverInfo?: Implementation;
  readonly instructions?: string;
  /** Titles, icons and output schemas of the served tools, by tool name (see {@link ServedToolExtras}). */
  readonly toolExtras?: Readonly<Record<string, ServedToolExtras>>;
  /** Resources to serve at fixed URIs; with `resourceTemplates`, declares the `resources` capability. */
  readonly resources?: readonly ServedResource[];
  /** Resources to serve under URI templates. */
  readonly resourceTemplates?: readonly ServedResourceTemplate[];
  /** Prompt templates to serve; declares the `prompts` capability. */
  readonly prompts?: readonly ServedPrompt[];
  /** Items per page of `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list` (default: all in one). */
  readonly pageSize?: number;
}

/** A catalogue ready to be served; each connection (stdio, or an HTTP session) gets its own MCP `Server`. */
export interface ServedCatalogue {
  /**
   * A new MCP `Server` for one connection (2025 era, the default) or one 2026-07-28 request (`era:
   * 'modern'`): connect it to any transport, or give it to the SDK's `createMcpHandler` / `serveStdio`.
   */
  createServer(identity: Omit<McpClientIdentity, 'authInfo' | 'session' | 'protocolVersion'>, era?: McpEra): Server;
  /**
   * Serves over stdin/stdout (this process's by default) until the input closes: a client's opening message
   * selects the era (2026-07-28 `server/discover`, or the 2025 `initialize`).
   */
  serveStdio(stdin?: Readable, stdout?: Writable): Promise<StdioServing>;
  /**
   * Serves another catalogue from now on (tools added, removed or changed) and tells every connected client
   * (`notifications/tools/list_changed`). Calls already running finish on the catalogue they started on.
   */
  replaceCatalogue(next: Catalogue): Promise<void>;
  /**
   * Tells the clients that subscribed to `uri` that it changed (`notifications/resources/updated`), each only if
   * its session may read it.
   */
  resourceUpdated(uri: string): Promise<void>;
}

const DEFAULT_CONFIRMATION_TIMEOUT_MS = 60_000;

const CONFIRM_SCHEMA = {
  type: 'object',
  properties: {
    confirm: {
      type: 'boolean',
      title: 'Run it',
      description: 'Yes runs this call, with exactly these arguments, once.',
    },
  },
  required: ['confirm'],
} as const;

/**
 * Exposes a catalogue as an MCP server. `tools/list` shows each tool's declaration with annotations derived
 * from its definition (irreversible → `destructiveHint: true`); every `tools/call` runs through the same
 * four checks as a model's call, for the session `sessionFor` maps the caller to, and is journaled. An
 * irreversible call is confirmed by the client's human through elicitation when the client supports it,
 * and refused with instructions when it does not.
 */
export function serveCatalogue(catalogue: Catalogue, options: ServeCatalogueOptions): ServedCatalogue {
  let current = catalogue;
  let tools: Tool[] = servedToolListing(current, options.toolExtras);
  const resources = options.resources ?? [];
  const templates = options.resourceTemplates ?? [];
  const prompts = options.prompts ?? [];
  /** The connected servers, for list changes and resource updates. */
  const live = new Set<{
    readonly server: Server;
    readonly subscriptions: Map<string, Session>;
    readonly mayRead: (uri: string, session: Session) => boolean;
  }>();

  const timeoutMs = options.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS;
  // The 2026-07-28 confirmation's question is signed, so its retry cannot claim another call or human, and it
  // expires with the confirmation time-out; each answer's nonce is spent once.
  const confirmations = {
    codec: createRequestStateCodec<ConfirmationState>({
      key: options.requestStateKey ?? randomBytes(32),
      ttlSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)),
    }),
    spent: new SpentConfirmations(timeoutMs + 1000),
  };

  function createServer(
    connection: Omit<McpClientIdentity, 'authInfo' | 'session' | 'protocolVersion'>,
    era: McpEra = 'legacy',
  ): Server {
    // The SDK's low-level `Server`, not `McpServer`: the catalogue's declarations are JSON Schema already and
    // its executor does the validating, so every call must reach `tools/call` as the client sent it.
    const server = new Server(options.serverInfo ?? { name: 'toolcircuit', version: '0.1.0' }, {
      capabilities: capabilitiesOf(options),
      requestState: { verify: confirmations.codec.verify },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
    const identityOf = (ctx: ServerContext): McpClientIdentity => ({
      ...connection,
      ...(ctx.http?.authInfo === undefined ? {} : { authInfo: ctx.http?.authInfo }),
      ...sessionField(sessionOfAuthInfo(ctx.http?.authInfo)),
      ...(ctx.sessionId === undefined ? {} : { mcpSessionId: ctx.sessionId }),
    });
    const sessionOf = async (ctx: ServerContext): Promise<Session> => {
      const session = await options.sessionFor(identityOf(ctx));
      if (session === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'This client is not authorised to use this server.');
      }
      return session;
    };
    server.setRequestHandler('tools/list', (request) => {
      const page = pageOf(tools, request.params?.cursor, options.pageSize);
      return { tools: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const protocolVersion = revisionOf(server, ctx, era);
      const identity: McpClientIdentity = { ...identityOf(ctx), protocolVersion };
      const session = await options.sessionFor(identity);
      if (session === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'This client is not authorised to call tools on this server.',
        );
      }
      const call: ToolCallPart = {
        type: 'tool_call',
        id: String(ctx.mcpReq.id),
        name: request.params.name,
        input: request.params.arguments ?? {},
      };
      const runId = `mcp-${identity.mcpSessionId ?? identity.transport}-${randomUUID()}`;
      const served = current;
      const journal =
        options.journal === undefined
          ? undefined
          : journalWithProtocol(options.journal, { name: 'mcp', revision: protocolVersion, role: 'server' });
      const taint = request.params._meta?.[TAINT_DIGEST_META_KEY];
      // The tool may reach its caller (progress, logs, sampling, elicitation) through `servedCallOf(context)`.
      const result = await withServedCall(runId, ctx, server.getClientCapabilities(), () =>
        callTool(
          server,
          served,
          session,
          call,
          { signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id, runId },
          { ...options, ...(journal === undefined ? {} : { journal }) },
          eraOf(protocolVersion) === 'modern'
            ? { ctx, confirmations, taintDigest: typeof taint === 'string' ? taint : undefined }
            : undefined,
        ),
      );
      // A question for the human (2026-07-28) is not the tool's output: only a result is held to its schema.
      if ('resultType' in result && result.resultType === 'input_required') return result;
      return withDeclaredOutput(result as CallToolResult, call.name, options.toolExtras);
    });
    const subscriptions = new Map<string, Session>();
    let mayRead = (_uri: string, _session: Session): boolean => false;
    if (resources.length > 0 || templates.length > 0) {
      mayRead = registerResources(server, {
        resources,
        templates,
        pageSize: options.pageSize,
        sessionOf,
        subscriptions,
      }).mayRead;
    }
    if (prompts.length > 0) registerPrompts(server, prompts, options.pageSize, sessionOf);
    if (prompts.length > 0 || templates.length > 0) registerCompletion(server, prompts, templates, sessionOf);
    const connected = { server, subscriptions, mayRead };
    live.add(connected);
    const previous = server.onclose;
    server.onclose = () => {
      live.delete(connected);
      previous?.();
    };
    return server;
  }

  return {
    createServer,
    serveStdio(stdin?: Readable, stdout?: Writable) {
      return serveStdioBothEras(
        (era) => createServer({ transport: 'stdio' }, era),
        new StdioServerTransport(stdin, stdout),
      );
    },
    async replaceCatalogue(next) {
      current = next;
      tools = servedToolListing(next, options.toolExtras);
      await Promise.all([...live].map(({ server }) => server.sendToolListChanged().catch(() => undefined)));
    },
    async resourceUpdated(uri) {
      await Promise.all(
        [...live].map(async ({ server, subscriptions, mayRead }) => {
          const session = subscriptions.get(uri);
          if (session === undefined || !mayRead(uri, session)) return;
          await server.sendResourceUpdated({ uri }).catch(() => undefined);
        }),
      );
    },
  };
}

/** Tools (whose list may change) and logging always; resources, prompts and completion when given. */
function capabilitiesOf(options: ServeCatalogueOptions): ServerCapabilities {
  const resources = (options.resources?.length ?? 0) + (options.resourceTemplates?.length ?? 0) > 0;
  const prompts = (options.prompts?.length ?? 0) > 0;
  return {
    tools: { listChanged: true },
    logging: {},
    ...(resources ? { resources: { subscribe: true } } : {}),
    ...(prompts ? { prompts: {} } : {}),
    ...(prompts || (options.resourceTemplates?.length ?? 0) > 0 ? { completions: {} } : {}),
  };
}

async function callTool(
  server: Server,
  catalogue: Catalogue,
  session: Session,
  call: ToolCallPart,
  request: { readonly signal: AbortSignal; readonly requestId: RequestId; readonly runId: string },
  options: ServeCatalogueOptions,
  modern:
    | {
        readonly ctx: ServerContext;
        readonly confirmations: Parameters<typeof confirmByInputRequired>[4];
        readonly taintDigest: string | undefined;
      }
    | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const { signal } = request;
  const context = {
    catalogue,
    session,
    signal,
    runId: request.runId,
    turn: 1,
    confirmation: 'refuse' as const,
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const entry = catalogue.get(call.name);
  // Ask only for a call that would otherwise run: known, valid, allowed, irreversible.
  const needsConfirmation =
    entry?.definition.irreversible === true &&
    isAuthorized(entry.definition.right, session) &&
    (await catalogue.validate(call.name, call.input)).ok;
  if (!needsConfirmation) return toMcpResult((await executeCall(call, context)).result);

  // A 2026-07-28 request declares its client's capabilities itself; a 2025-era connection did at `initialize`.
  const capabilities =
    modern === undefined
      ? server.getClientCapabilities()
      : ((modern.ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
          | ClientCapabilities
          | undefined);
  if (!supportsFormElicitation(capabilities)) {
    const outcome = await executeCall(call, context);
    return toMcpResult(
      outcome.result,
      `"${call.name}" is irreversible: it runs only when the human confirms these exact arguments, which this ` +
        'server asks through MCP elicitation. This client does not support elicitation; use one that does, or ' +
        `have the human confirm the call in the application (tool "${call.name}", argument digest ${argumentDigest(call.input)}).`,
    );
  }
  // 2026-07-28 has no server-to-client requests: the question rides the result, the answer the retry.
  if (modern !== undefined) {
    return confirmByInputRequired(modern.ctx, call, session, context, modern.confirmations, modern.taintDigest);
  }
  const timeoutMs = options.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS;
  let answer: ElicitResult;
  try {
    answer = await server.elicitInput(
      {
        mode: 'form',
        message: confirmationQuestion(call.name, call.input),
        requestedSchema: CONFIRM_SCHEMA as never,
      },
      {
        signal,
        // Sent on the `tools/call` request's own response stream (Streamable HTTP), not on the session's
        // standalone GET stream: a client that opens none is still asked, and the question goes to the
        // connection that made this call.
        relatedRequestId: request.requestId,
        timeout: timeoutMs,
      },
    );
  } catch (error) {
    // No answer (the client failed or timed out, or the call was cancelled) is no confirmation.
    const outcome = await executeCall(call, context);
    if (signal.aborted) return toMcpResult(outcome.result);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return toMcpResult(outcome.result, `Nobody answered the confirmation within ${timeoutMs / 1000} s.`);
    }
    return toMcpResult(outcome.result, `The confirmation could not be asked: ${messageOf(error)}`);
  }
  if (answer.action === 'accept' && answer.content?.confirm === true) {
    // This human's yes, for this one call's run: never another caller's, never a later call.
    await session.confirmations.grant(
      confirmationFor(call.name, call.input, { humanId: session.humanId, runId: context.runId }),
    );
    return toMcpResult((await executeCall(call, context)).result);
  }
  // Declined or cancelled: the refusal is journaled like any other, and the client's model is told.
  const outcome = await executeCall(call, context);
  return toMcpResult(outcome.result, `The human did not confirm this call (${answer.action}).`);
}

/** The call's revision: the 2026-07-28 request's own envelope, or what the 2025-era connection negotiated. */
function revisionOf(server: Server, ctx: ServerContext, era: McpEra): string {
  if (era === 'modern') {
    const claimed = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
    return typeof claimed === 'string' ? claimed : MODERN_REVISION;
  }
  return server.getNegotiatedProtocolVersion() ?? 'unknown';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sessionField(session: Session | undefined): { session?: Session } {
  return session === undefined ? {} : { session };
}
