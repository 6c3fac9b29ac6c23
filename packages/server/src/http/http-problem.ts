/**
 * The stable codes of the server's error bodies. Clients branch on these, never on the message, so a code
 * is never renamed or reused for another meaning.
 */
export type RunServerErrorCode =
  | 'unauthenticated'
  | 'forbidden_origin'
  | 'not_found'
  | 'run_not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_event_id'
  | 'call_not_pending'
  | 'input_digest_mismatch'
  | 'taint_digest_mismatch'
  | 'run_not_paused'
  | 'decision_conflict'
  | 'run_not_resumable'
  | 'run_not_cancellable'
  | 'catalogue_changed'
  | 'internal_error';

/** The body of every error response. */
export interface RunServerErrorBody {
  readonly error: { readonly code: RunServerErrorCode; readonly message: string };
}

/** An answer other than success, thrown inside the handler and turned into its JSON response at the top. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: RunServerErrorCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: RunServerErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function problemResponse(problem: HttpProblem): Response {
  const body: RunServerErrorBody = { error: { code: problem.code, message: problem.message } };
  return jsonResponse(problem.status, body, { ...problem.headers });
}
