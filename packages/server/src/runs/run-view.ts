import type { Message } from '@toolcircuit/core';
import type { JournalRow, RunRecord, RunStatus } from '@toolcircuit/stores';
import { type ApprovalView, approvalsOf } from './approval-view.js';
import { type JournalRowView, journalRowView } from './journal-row-view.js';

/** A run as its human reads it. */
export interface RunView {
  readonly id: string;
  readonly status: RunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The conversation as far as it is stored. */
  readonly messages: readonly Message[];
  /** The last model text, once the run finished. */
  readonly text?: string;
  /** The calls waiting for this human's decision (while `paused`). */
  readonly pending: readonly ApprovalView[];
  /** Why the run was interrupted. */
  readonly error?: string;
  /** The run's last journal records (decisions with their human, starts, call verdicts). */
  readonly journal: readonly JournalRowView[];
}

export function runView(record: RunRecord, journal: readonly JournalRow[]): RunView {
  return {
    id: record.runId,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    messages: messagesOf(record),
    ...(record.result === undefined ? {} : { text: record.result.text }),
    pending: pendingOf(record),
    ...(record.error === undefined ? {} : { error: record.error }),
    journal: journal.map(journalRowView),
  };
}

export function pendingOf(record: RunRecord): ApprovalView[] {
  if (record.status !== 'paused' || record.paused === undefined) return [];
  return approvalsOf(record.paused, record.updatedAt);
}

function messagesOf(record: RunRecord): readonly Message[] {
  return (
    record.result?.messages ?? record.paused?.messages ?? record.interrupted?.messages ?? record.started?.messages ?? []
  );
}
