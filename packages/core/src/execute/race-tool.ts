import { listenForAbort } from '../async/abort-listeners.js';
import type { ToolOutput } from '../catalogue/tool.js';
import { CallToolContext } from './call-tool-context.js';

/** How a tool that returned a promise ended. */
export type RunOutcome =
  | { readonly kind: 'returned'; readonly output: ToolOutput }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' };

const returned = (output: ToolOutput): RunOutcome => ({ kind: 'returned', output });
const threw = (error: unknown): RunOutcome => ({ kind: 'threw', error });

/**
 * Whatever settles first wins; the tool's signal is aborted after, so a tool reacting to it cannot race.
 * With neither a timeout nor a signal there is nothing to race: the tool's own promise is the outcome, with
 * no wrapper promise. Otherwise one promise, settled once, and a share of the signal's one abort listener
 * (see `listenForAbort`) rather than a listener per call.
 */
export function raceTool(
  pending: PromiseLike<ToolOutput>,
  toolName: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  toolContext: CallToolContext,
): Promise<RunOutcome> {
  // The executor answers a tool with neither straight from its promise; kept here so the race stands alone.
  if (timeoutMs === undefined && signal === undefined) return Promise.resolve(pending).then(returned, threw);
  return new Promise<RunOutcome>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopListening: (() => void) | undefined;
    let settled = false;
    const settle = (outcome: RunOutcome): boolean => {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      stopListening?.();
      resolve(outcome);
      return true;
    };
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (!settle({ kind: 'timed_out', timeoutMs })) return;
        CallToolContext.controllerOf(toolContext).abort(
          new Error(`Tool "${toolName}" timed out after ${timeoutMs} ms`),
        );
      }, timeoutMs);
    }
    if (signal !== undefined) {
      const onAbort = () => {
        if (!settle({ kind: 'aborted' })) return;
        CallToolContext.controllerOf(toolContext).abort(signal.reason);
      };
      // The tool's synchronous part may have fired the signal: a listener added now would never be called.
      if (signal.aborted) onAbort();
      else if (!settled) stopListening = listenForAbort(signal, onAbort);
    }
    Promise.resolve(pending).then(
      (output) => settle(returned(output)),
      (error: unknown) => settle(threw(error)),
    );
  });
}
