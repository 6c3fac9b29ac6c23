import type { Verdict } from '@toolcircuit/core';
import type { CallChecks } from './trace-event.js';

/**
 * Which of the four checks a call passed, from its verdict. The executor stops at the first failing check,
 * so a refusal's reason says which one failed and every later one was skipped.
 */
export function callChecks(verdict: Verdict, irreversible: boolean | undefined): CallChecks {
  const confirmation = irreversible === true ? 'pass' : 'n/a';
  switch (verdict.kind) {
    case 'executed':
    case 'failed':
    case 'timed_out':
      return { exists: 'pass', schema: 'pass', right: 'pass', confirmation };
    case 'aborted':
      // Aborted before or while running: the checks that ran are unknown, so none is claimed.
      return { exists: 'n/a', schema: 'n/a', right: 'n/a', confirmation: 'n/a' };
    case 'awaiting_confirmation':
      return { exists: 'pass', schema: 'pass', right: 'pass', confirmation: 'pending' };
    case 'refused':
      switch (verdict.reason) {
        case 'unknown_tool':
        // Not offered at that step: a deferred tool no search has loaded yet, or a catalogue tool the step's
        // plan left out. Both fail the first check: not a tool the model may call at this point.
        case 'tool_not_loaded':
        case 'inactive_tool':
          return { exists: 'fail', schema: 'skipped', right: 'skipped', confirmation: 'skipped' };
        case 'invalid_input':
        // A reference to a document value the run does not hold: the arguments cannot be read.
        case 'unknown_reference':
          return { exists: 'pass', schema: 'fail', right: 'skipped', confirmation: 'skipped' };
        case 'missing_right':
          return { exists: 'pass', schema: 'pass', right: 'fail', confirmation: 'skipped' };
        case 'confirmation_required':
        case 'confirmation_denied':
        // The provenance policy refused it at the confirmation step (untrusted output in the run), or a
        // data-flow option did, just before it (a value no trusted source holds, a call outside the plan).
        case 'untrusted_context':
        case 'untrusted_value':
        case 'unplanned_call':
          return { exists: 'pass', schema: 'pass', right: 'pass', confirmation: 'fail' };
        case 'duplicate_call_id':
        case 'incomplete_call':
          return { exists: 'n/a', schema: 'n/a', right: 'n/a', confirmation: 'n/a' };
        // Every check passed; the tool itself then refused, having done nothing.
        case 'tool_refused':
          return { exists: 'pass', schema: 'pass', right: 'pass', confirmation };
      }
  }
}
