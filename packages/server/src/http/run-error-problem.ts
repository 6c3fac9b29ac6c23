import { HttpProblem } from './http-problem.js';

/**
 * The runner's refusals as answers, by their stable `code` (not `instanceof`: an application may load two
 * copies of the stores package). `undefined` for anything else: a failure of the server, not of the request.
 */
export function runErrorProblem(error: unknown): HttpProblem | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { readonly code?: unknown }).code;
  switch (code) {
    case 'run_claim_conflict':
    case 'paused_run_resumed':
      // Two tabs, a double click, a retry: another decision claimed the run first and runs it.
      return new HttpProblem(409, 'decision_conflict', error.message);
    case 'run_not_resumable':
      return new HttpProblem(409, 'run_not_paused', error.message);
    case 'invalid_resume':
    case 'state_seal':
      return new HttpProblem(409, 'run_not_resumable', error.message);
    case 'catalogue_changed':
      return new HttpProblem(409, 'catalogue_changed', error.message);
    case 'run_not_found':
      return new HttpProblem(404, 'run_not_found', 'there is no such run.');
    default:
      return undefined;
  }
}
