import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * The journal refused an entry. This is not a model mistake and is thrown: a circuit that cannot keep its
 * audit trail must not carry on silently. `retryable` is the journal store's own word on its error (a lost
 * connection is, a damaged file is not); the run goes on only once the store records again.
 */
export class JournalWriteError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'journal_write_failed' as const;
  readonly callId: string;
  /** The run the call belongs to. */
  readonly runId: string | undefined;
  /** Whether the store said its failure is temporary (the same write may succeed later). */
  readonly retryable: boolean;

  constructor(callId: string, cause: unknown, runId?: string) {
    const ofRun = runId === undefined ? '' : ` of run "${runId}"`;
    const retryable = (cause as { retryable?: unknown } | null)?.retryable === true;
    super(
      `The journal could not record call "${callId}"${ofRun}: ${text(cause).replace(/\.$/, '')}. ` +
        'The run was stopped so that no call goes unrecorded. Once the journal store records again, continue the run ' +
        `from its last recorded state${runId === undefined ? '' : ` (a durable run: runner.recover("${runId}", { session }))`}; ` +
        'this call is then reported "outcome unknown", never run a second time.',
      { cause },
    );
    this.callId = callId;
    this.runId = runId;
    this.retryable = retryable;
  }
}

function text(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
