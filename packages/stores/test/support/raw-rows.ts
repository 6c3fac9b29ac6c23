import type { RawJournalRow } from '../../src/index.js';

/** The run id and kind columns of a raw row, read from its record when it still parses. */
export function indexColumns(row: RawJournalRow): { runId: string; kind: string } {
  try {
    const record = JSON.parse(row.recordJson) as { runId?: unknown; kind?: unknown };
    return { runId: String(record.runId ?? ''), kind: String(record.kind ?? '') };
  } catch {
    return { runId: '', kind: '' };
  }
}
