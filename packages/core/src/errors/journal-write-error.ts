import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * The journal refused an entry. This is not a model mistake and is thrown: a circuit that cannot keep its
 * audit trail must not carry on silently.
 */
export class JournalWriteError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'journal_write_failed' as const;
  readonly callId: string;

  constructor(callId: string, cause: unknown) {
    super(
      `The journal could not record call "${callId}": ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'Check the journal store; the run was stopped so that no call goes unrecorded.',
      { cause },
    );
    this.callId = callId;
  }
}
