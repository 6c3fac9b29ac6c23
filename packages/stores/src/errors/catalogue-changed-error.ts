import { ToolcircuitError } from '@toolcircuit/core';

/**
 * The catalogue given to resume differs from the one the run paused with (a tool added, removed, or with a
 * new schema, right or irreversible flag). The human approved calls against the old one, so nothing runs.
 */
export class CatalogueChangedError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'catalogue_changed' as const;
  readonly runId: string;
  readonly changes: readonly string[];

  constructor(runId: string, changes: readonly string[]) {
    super(
      `Run "${runId}" paused with another catalogue (${changes.join(', ')}), so it was not resumed and nothing ran. ` +
        'Resume it with the catalogue it paused with (e.g. from a worker still on the previous release), or start a ' +
        'new run and ask the human again.',
    );
    this.runId = runId;
    this.changes = changes;
  }
}
