import type { ToolOutput } from '../catalogue/tool.js';
import { CallToolContext } from './call-tool-context.js';

/** How a tool that returned a promise ended. */
export type RunOutcome =
  | { readonly kind: 'returned'; readonly output: ToolOutput }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' };

/** Whatever settles first wins; the tool's signal is aborted after, so a tool reacting to it cannot race. */
export async function raceTool(
  pending: PromiseLike<ToolOutput>,
  toolName: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  toolContext: CallToolContext,
): Promise<RunOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<RunOutcome>((resolve) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        resolve({ kind: 'timed_out', timeoutMs });
        CallToolContext.controllerOf(toolContext).abort(
          new Error(`Tool "${toolName}" timed out after ${timeoutMs} ms`),
        );
      }, timeoutMs);
    }
    if (signal !== undefined) {
      onAbort = () => {
        resolve({ kind: 'aborted' });
        CallToolContext.controllerOf(toolContext).abort(signal.reason);
      };
      // The tool's synchronous part may have fired the signal: a listener added now would never be called.
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    Promise.resolve(pending).then(
      (output) => resolve({ kind: 'returned', output }),
      (error: unknown) => resolve({ kind: 'threw', error }),
    );
  });
  if (timer !== undefined) clearTimeout(timer);
  if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  return outcome;
}
