import type { JsonValue } from '@toolcircuit/core';
import { CHECKS, type CheckState, type TraceEvent } from './trace-event.js';

const MARK: Readonly<Record<CheckState, string>> = { pass: '✓', fail: '✗', pending: '…', skipped: '', 'n/a': '' };

const REFUSED_BY: Readonly<Record<string, string>> = {
  unknown_tool: 'refused: no such tool',
  tool_not_loaded: 'refused: not loaded by a search yet',
  inactive_tool: 'refused: not offered at this step',
  invalid_input: 'refused by schema',
  missing_right: 'refused: missing right',
  confirmation_required: 'refused: not confirmed',
  confirmation_denied: 'refused: the human declined',
  duplicate_call_id: 'refused: duplicate call id',
  incomplete_call: 'refused: cut off by max tokens',
  untrusted_context: 'refused: untrusted content in the run',
  tool_refused: 'refused by the tool itself (not run)',
};

/** Arguments on one line, clipped: a trace line must stay readable whatever the model sent. */
export function inlineJson(value: JsonValue | null, max = 100): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `chercher_dossier {"numero":"b-12"}  exists ✓ schema ✗ · refused by schema`. */
export function formatCallLine(event: Extract<TraceEvent, { type: 'call' }>): string {
  const checks = CHECKS.filter(
    (check) => MARK[event.checks[check]] !== '' && !(event.resumed && check !== 'confirmation'),
  )
    .map((check) => `${check} ${MARK[event.checks[check]]}`)
    .join(' ');
  return `${event.tool} ${inlineJson(event.input)}  ${checks}${checks === '' ? '' : ' · '}${outcome(event)}`;
}

function outcome(event: Extract<TraceEvent, { type: 'call' }>): string {
  switch (event.verdict) {
    case 'executed':
      return event.resumed ? 'executed (after approval)' : 'executed';
    case 'refused':
      return REFUSED_BY[event.reason ?? ''] ?? `refused (${event.reason ?? 'unknown'})`;
    case 'awaiting_confirmation':
      return 'paused for confirmation';
    case 'failed':
      return 'ran and failed';
    case 'timed_out':
      return 'timed out';
    case 'aborted':
      return 'aborted';
  }
}
