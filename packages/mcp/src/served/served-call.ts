import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolContext } from '@toolcircuit/core';
import { supportsFormElicitation } from './client-capabilities.js';

/**
 * What a catalogue tool can do with the MCP client that called it, while its call runs: report progress,
 * log, ask the client's model (sampling) or its human (elicitation), and let the client poll for the result.
 * What comes back from sampling or elicitation is the client's word, not the application's: treat it as
 * untrusted input.
 */
export interface ServedCall {
  /** The capabilities the client declared: sampling and elicitation work only when it declared them. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /**
   * Tells the client how far the call is (`notifications/progress`), when the client asked for progress on
   * this call (a `progressToken`); otherwise does nothing. `progress` must grow from one report to the next.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message about this call (`notifications/message`), if the client's log level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model (`sampling/createMessage`); throws when the client does not support sampling. */
  sample(params: CreateMessageRequest['params']): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Asks the client's human through a form (`elicitation/create`); throws when the client cannot elicit. */
  elicit(params: Omit<ElicitRequestFormParams, 'mode'>): Promise<ElicitResult>;
  /**
   * Closes this call's SSE stream over Streamable HTTP, so the client reconnects and polls for what follows
   * (its result included) instead of holding a connection through a long call. `false` when the transport
   * cannot (stdio, or HTTP without an event store): the call then answers on the open stream as usual.
   */
  closeStream(): boolean;
}

/** The calls in progress, by their run id: each served call runs alone in a run of its own. */
const calls = new Map<string, ServedCall>();

/**
 * The MCP client's channel for a tool's call, from the context its `run` receives; `undefined` when the call
 * did not come through `serveCatalogue` (a model's call in the loop), so a tool can serve both.
 */
export function servedCallOf(context: Pick<ToolContext, 'runId'>): ServedCall | undefined {
  return calls.get(context.runId);
}

/** Runs `body` with the channel to the client registered for the run id the served call runs under. */
export async function withServedCall<T>(
  runId: string,
  ctx: ServerContext,
  clientCapabilities: ClientCapabilities | undefined,
  body: () => Promise<T>,
): Promise<T> {
  calls.set(runId, servedCall(ctx, clientCapabilities));
  try {
    return await body();
  } finally {
    calls.delete(runId);
  }
}

function servedCall(ctx: ServerContext, clientCapabilities: ClientCapabilities | undefined): ServedCall {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    clientCapabilities,
    async progress(progress, total, message) {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
    async sample(params) {
      if (clientCapabilities?.sampling === undefined) {
        throw new Error('This MCP client does not support sampling (it declared no sampling capability).');
      }
      return ctx.mcpReq.requestSampling(params, { signal: ctx.mcpReq.signal });
    },
    async elicit(params) {
      if (!supportsFormElicitation(clientCapabilities)) {
        throw new Error('This MCP client does not support form elicitation.');
      }
      return ctx.mcpReq.elicitInput({ mode: 'form', ...params } as ElicitRequestFormParams, {
        signal: ctx.mcpReq.signal,
      });
    },
    closeStream() {
      const close = ctx.http?.closeSSE;
      if (close === undefined) return false;
      close();
      return true;
    },
  };
}
