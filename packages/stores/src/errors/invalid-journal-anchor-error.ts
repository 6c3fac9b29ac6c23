import { ToolcircuitError } from '@toolcircuit/core';

/** An anchor given to `verifyJournal` cannot be used: malformed, or its MAC is missing its key or wrong. */
export class InvalidJournalAnchorError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_journal_anchor' as const;

  constructor(problemAndFix: string) {
    super(`The journal anchor cannot be used: ${problemAndFix}`);
  }
}
