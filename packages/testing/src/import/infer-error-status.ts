import type { CassetteProtocol } from '../cassettes/cassette.js';
import { numberAt, recordAt, stringAt } from '../cassettes/json-access.js';

/** An HTTP status for an error body stored without one, and how it was found. */
export interface InferredStatus {
  readonly status: number;
  readonly note: string;
}

// @see https://docs.anthropic.com/en/api/errors
const ANTHROPIC_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

// @see https://platform.openai.com/docs/guides/error-codes — quota and rate limits are 429s.
const OPENAI_STATUS_BY_CODE: Readonly<Record<string, number>> = {
  insufficient_quota: 429,
  rate_limit_exceeded: 429,
  invalid_api_key: 401,
};
const OPENAI_STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  insufficient_quota: 429,
  rate_limit_error: 429,
  server_error: 500,
};

/**
 * Whether a stored body is an error, and with which status. Returns undefined for a success body.
 * @throws Error when the body is an error whose status cannot be told: never guess silently.
 */
export function inferErrorStatus(protocol: CassetteProtocol, body: unknown): InferredStatus | undefined {
  if (protocol === 'anthropic-messages') {
    if (stringAt(body, 'type') !== 'error') return undefined;
    const type = stringAt(recordAt(body, 'error'), 'type') ?? '';
    const status = ANTHROPIC_STATUS[type];
    if (status === undefined) throw new Error(`Anthropic error type "${type}" has no known HTTP status`);
    return {
      status,
      note: `HTTP status ${status} inferred from error.type "${type}" (the source stores the body only).`,
    };
  }
  const error = recordAt(body, 'error');
  if (error === undefined) return undefined;
  if (protocol === 'gemini') {
    const code = numberAt(error, 'code');
    if (code === undefined) throw new Error('Gemini error body without error.code');
    return {
      status: code,
      note: `HTTP status ${code} taken from the body's error.code (the source stores the body only).`,
    };
  }
  const code = stringAt(error, 'code') ?? '';
  const type = stringAt(error, 'type') ?? '';
  const byCode = OPENAI_STATUS_BY_CODE[code];
  const status = byCode ?? OPENAI_STATUS_BY_TYPE[type];
  if (status === undefined) throw new Error(`OpenAI error code "${code}" / type "${type}" has no known HTTP status`);
  const from = byCode === undefined ? `error.type "${type}"` : `error.code "${code}"`;
  return { status, note: `HTTP status ${status} inferred from ${from} (the source stores the body only).` };
}
