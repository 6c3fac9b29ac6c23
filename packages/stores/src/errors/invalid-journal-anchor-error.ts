import { ToolcircuitError } from '@toolcircuit/core';

/** An anchor given to `verifyJournal` cannot be used: malformed, or its MAC is missing its key or wrong. */
export class InvalidJournalAnchorError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_journal_anchor' as const;
  /**
   * True when the anchor itself shows tampering (a MAC that does not match, one removed, an unsigned anchor
   * where keys are in use): the audit evidence was changed, which `journal verify` reports as damage (exit
   * 1). False for what the user must fix (a malformed anchor, a key not given).
   */
  readonly tampered: boolean;

  constructor(problemAndFix: string, options: { readonly tampered?: boolean } = {}) {
    super(`The journal anchor cannot be used: ${problemAndFix}`);
    this.tampered = options.tampered ?? false;
  }
}
