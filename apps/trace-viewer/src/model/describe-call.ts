import { type AttemptView, type CallCategory, type CallView, gateOfCall } from './run-view.js';

/** What a person reads on a call's row: what happened to it, in words, no JSON needed. */
export function describeCall(call: CallView): string {
  const last = call.attempts.at(-1);
  if (last === undefined) return 'no attempt recorded';
  switch (call.category) {
    case 'ok':
      return 'ran ✓';
    case 'approved': {
      const runs = call.attempts.filter((attempt) => attempt.verdict === 'executed').length;
      return `paused for confirmation → approved → ran ${runs === 1 ? 'once' : `${runs} times`} ✓`;
    }
    case 'paused':
      return "paused: waiting for the human's confirmation";
    case 'denied':
      return 'paused → denied by the human, not run';
    case 'refused':
      return describeRefusal(last);
    case 'tool-error':
      return describeToolError(last);
    case 'aborted':
      return 'aborted before it finished';
  }
}

export function describeRefusal(attempt: AttemptView): string {
  switch (attempt.reason) {
    case 'invalid_input':
      return 'refused by the schema (invalid input)';
    case 'missing_right':
      return attempt.right === undefined || attempt.right === null
        ? 'refused: missing right'
        : `refused: missing right “${attempt.right}”`;
    case 'unknown_tool':
      return 'refused: no such tool';
    case 'tool_not_loaded':
      return 'refused: not loaded by a tool search yet';
    case 'inactive_tool':
      return 'refused: tool not offered at this step';
    case 'confirmation_required':
      return "refused: needs the human's confirmation";
    case 'confirmation_denied':
      return 'denied by the human';
    case 'duplicate_call_id':
      return 'refused: duplicate call id';
    case 'incomplete_call':
      return 'refused: cut off by the token limit';
    case 'untrusted_context':
      return 'refused: untrusted content in the run';
    case 'tool_refused':
      return 'refused by the tool itself: not run';
    default:
      return 'refused';
  }
}

function describeToolError(attempt: AttemptView): string {
  if (attempt.verdict === 'timed_out') return `timed out after ${attempt.timeoutMs ?? '?'} ms`;
  if (attempt.verdict === 'failed')
    return attempt.message === undefined ? 'the tool failed' : `failed: ${clip(attempt.message, 80)}`;
  return 'ran, returned an error';
}

export const CATEGORY_LABELS: Readonly<Record<CallCategory, string>> = {
  ok: 'ran',
  approved: 'approved, then ran',
  paused: 'paused',
  refused: 'refused',
  denied: 'denied',
  'tool-error': 'tool error',
  aborted: 'aborted',
};

/** Which calls a filter keeps. */
export type CallFilter = 'all' | 'refusals' | 'errors' | 'confirmations';

export function matchesFilter(call: CallView, filter: CallFilter, tool: string): boolean {
  if (tool !== '' && !call.tool.toLowerCase().includes(tool.toLowerCase())) return false;
  switch (filter) {
    case 'all':
      return true;
    case 'refusals':
      return call.category === 'refused' || call.category === 'denied';
    case 'errors':
      return call.category === 'tool-error' || call.category === 'aborted';
    case 'confirmations':
      return call.attempts.some(
        (attempt) => attempt.verdict === 'awaiting_confirmation' || attempt.irreversible === true,
      );
  }
}

export function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** A short, stable preview of a call's input for its row. */
export function inputPreview(input: unknown): string {
  if (input === undefined) return '';
  try {
    return clip(JSON.stringify(input), 60);
  } catch {
    return '';
  }
}

/**
 * Why a call was gated, in a few words for its row: how many untrusted sources were in the run and which
 * argument values were copied from them. `undefined`: it was not gated.
 */
export function gateSummary(call: CallView): string | undefined {
  const gate = gateOfCall(call);
  if (gate === undefined) return undefined;
  const sources = gate.untrustedSources.length;
  const flagged = gate.flaggedArguments.length;
  return (
    `after untrusted content: ${sources} source${sources === 1 ? '' : 's'}` +
    (flagged === 0 ? '' : `, ${flagged} value${flagged === 1 ? '' : 's'} copied from ${sources === 1 ? 'it' : 'them'}`)
  );
}

/** A flagged argument on one line: its path, and its value when the trace has it. */
export function flaggedInWords(flagged: { readonly path: string; readonly value?: string | number }): string {
  return flagged.value === undefined ? flagged.path : `${flagged.path} = ${JSON.stringify(flagged.value)}`;
}
