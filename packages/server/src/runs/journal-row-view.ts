import type { JournalRow } from '@toolcircuit/stores';

/**
 * A journal row as the run's human reads it: what happened to which call, and who decided. What is kept
 * for the operator stays out (a tool's own error text, worker ids, stored outputs, retry errors): the
 * journal itself is read with the store's tools.
 */
export interface JournalRowView {
  readonly seq: number;
  readonly kind: JournalRow['record']['kind'];
  readonly at?: string;
  readonly turn?: number;
  readonly callId?: string;
  readonly toolName?: string;
  /** For a call: what the circuit did with it (`executed`, `refused`, `awaiting_confirmation`…). */
  readonly verdict?: string;
  readonly reason?: string;
  /** For a decision: the human who decided, and what. */
  readonly humanId?: string;
  readonly approved?: boolean;
  readonly note?: string;
  readonly inputDigest?: string | null;
}

export function journalRowView(row: JournalRow): JournalRowView {
  const { record } = row;
  const view: Record<string, unknown> = { seq: row.seq, kind: record.kind };
  for (const key of [
    'at',
    'turn',
    'callId',
    'toolName',
    'verdict',
    'reason',
    'humanId',
    'approved',
    'note',
    'inputDigest',
  ]) {
    const value = (record as unknown as Record<string, unknown>)[key];
    if (value !== undefined) view[key] = value;
  }
  return view as unknown as JournalRowView;
}
