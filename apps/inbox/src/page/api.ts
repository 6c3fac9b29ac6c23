import type { ApprovalView, RunView } from '@toolcircuit/server';

/** An answer of the run server that is not a success: its stable code, and its message for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface DecisionBody {
  readonly callId: string;
  readonly approved: boolean;
  readonly inputDigest: string;
  readonly taintDigest?: string;
  readonly note?: string;
}

/**
 * The run server's routes, called with the login token as a bearer token (never a cookie: no request of
 * another site can carry it). Same origin, relative paths: the page works under any prefix it is served at.
 */
export class RunApi {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  startRun(messages: readonly { role: 'user' | 'assistant'; content: string }[]): Promise<{ run: RunView }> {
    return this.#call('runs', { messages });
  }

  readRun(runId: string): Promise<{ run: RunView }> {
    return this.#call(`runs/${encodeURIComponent(runId)}`);
  }

  approvals(): Promise<{ approvals: ApprovalView[] }> {
    return this.#call('approvals');
  }

  decide(runId: string, decisions: readonly DecisionBody[]): Promise<{ run: RunView }> {
    return this.#call(`runs/${encodeURIComponent(runId)}/decisions`, { decisions });
  }

  async #call<T>(path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
    });
    const payload = (await response.json().catch(() => undefined)) as
      | { error?: { code?: string; message?: string } }
      | undefined;
    if (!response.ok) {
      throw new ApiError(
        response.status,
        payload?.error?.code ?? 'unknown',
        payload?.error?.message ?? `the server answered ${response.status}.`,
      );
    }
    return payload as T;
  }
}
