import type { ProviderErrorCode } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import type { FaultAnswer } from './fault-server.js';
import { FAULT_WIRES, type HttpFaultKind } from './fault-wire.js';

/** Whether the case is played against `generate` (one JSON answer) or `stream` (an event stream). */
export type FaultMode = 'generate' | 'stream';

/** What every adapter must report for a case: the same code and retry advice, whatever the provider. */
export interface FaultExpectation {
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The provider's own error code, as the body carried it. */
  readonly providerCode?: string;
  /** Text the error's message must contain (the real body's message, not a wrapper's). */
  readonly messageIncludes?: string;
}

/** One row of the fault model: a cause, how each protocol expresses it, and the one expected outcome. */
export interface FaultCase {
  readonly id: string;
  /** The cause, in words (the fault table of the providers guide, docs/guides/providers-and-config.md, has one row per case). */
  readonly cause: string;
  readonly modes: readonly FaultMode[];
  answer(protocol: CassetteProtocol, mode: FaultMode): FaultAnswer | 'refused';
  expected(protocol: CassetteProtocol, mode: FaultMode): FaultExpectation;
}

const RETRY_AFTER_SECONDS = 7;

function httpCase(id: string, kind: HttpFaultKind, code: ProviderErrorCode, retryable: boolean, status?: number) {
  const retryAfter = kind === 'rate_limited' ? RETRY_AFTER_SECONDS : undefined;
  const fault = (protocol: CassetteProtocol) => FAULT_WIRES[protocol].httpError(kind, status, retryAfter);
  return {
    id,
    cause: `HTTP ${status ?? fault('anthropic-messages').status} (${kind.replace('_', ' ')})`,
    modes: ['generate', 'stream'],
    answer(protocol, mode) {
      const wire = FAULT_WIRES[protocol];
      const { status: httpStatus, body } = fault(protocol);
      const headers = mode === 'stream' ? wire.streamErrorHeaders : { 'content-type': 'application/json' };
      return {
        status: httpStatus,
        headers: { ...headers, ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }) },
        body,
      };
    },
    expected(protocol) {
      const { status: httpStatus, providerCode, message } = fault(protocol);
      return {
        code,
        retryable,
        status: httpStatus,
        providerCode,
        messageIncludes: message,
        ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter * 1000 }),
      };
    },
  } satisfies FaultCase;
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>Sign in to the proxy</title></head><body><h1>Sign in</h1></body></html>';

/**
 * The fault model every adapter follows, in `generate` and in `stream`: the same cause gives the same
 * `ProviderError` code and retry advice on every provider, and a turn the provider did not finish is never
 * reported as a turn (nothing of it runs).
 */
export const FAULT_CASES: readonly FaultCase[] = [
  httpCase('http-400', 'invalid_request', 'invalid_request', false),
  httpCase('http-401', 'authentication', 'authentication', false),
  httpCase('http-403', 'permission', 'permission', false),
  httpCase('http-404', 'not_found', 'not_found', false),
  httpCase('http-429', 'rate_limited', 'rate_limited', true),
  httpCase('http-500', 'server_error', 'server_error', true),
  httpCase('http-503', 'overloaded', 'overloaded', true, 503),
  httpCase('http-529', 'overloaded', 'overloaded', true, 529),
  // A 503 whose body is the provider's generic server error (or a load balancer's): the status decides.
  {
    ...httpCase('http-503-generic', 'server_error', 'overloaded', true, 503),
    cause: "HTTP 503 with a generic server-error body (the provider's, or a load balancer's)",
  },
  {
    id: 'connection-refused',
    cause: 'connection refused (nothing listens)',
    modes: ['generate', 'stream'],
    answer: () => 'refused',
    expected: () => ({ code: 'connection', retryable: true }),
  },
  {
    id: 'body-cut',
    cause: 'a 200 JSON body cut mid-way (connection lost)',
    modes: ['generate'],
    answer(protocol) {
      const body = FAULT_WIRES[protocol].completeBody;
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        body: body.slice(0, Math.floor(body.length / 2)),
        cut: true,
      };
    },
    expected: () => ({ code: 'connection', retryable: true }),
  },
  {
    id: 'html-200',
    cause: 'a 200 answer whose body is an HTML page (a proxy, a wrong base URL)',
    modes: ['generate', 'stream'],
    answer: () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HTML_PAGE }),
    expected: () => ({ code: 'invalid_response', retryable: false }),
  },
  {
    id: 'invalid-json-200',
    cause: 'a 200 answer labelled JSON whose body is not valid JSON (a broken proxy or gateway)',
    modes: ['generate'],
    answer: (protocol) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `${FAULT_WIRES[protocol].completeBody.slice(0, 40)}<br>`,
    }),
    expected: () => ({ code: 'invalid_response', retryable: false }),
  },
  {
    id: 'empty-200',
    cause: 'an empty 200 answer, without a content-type',
    modes: ['generate'],
    answer: () => ({ status: 200, headers: {}, body: '' }),
    expected: () => ({ code: 'invalid_response', retryable: false }),
  },
  {
    id: 'empty-json-200',
    cause: 'an empty 200 answer labelled JSON',
    modes: ['generate'],
    answer: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '' }),
    expected: () => ({ code: 'invalid_response', retryable: false }),
  },
  {
    id: 'stream-without-end',
    cause: "a stream that ends cleanly between two events, before the provider's end-of-turn marker",
    modes: ['stream'],
    answer: (protocol) => ({
      status: 200,
      headers: FAULT_WIRES[protocol].streamHeaders,
      body: FAULT_WIRES[protocol].streamWithoutEnd,
    }),
    expected: () => ({ code: 'connection', retryable: true }),
  },
  {
    id: 'stream-cut',
    cause: 'a stream whose connection is lost mid-event',
    modes: ['stream'],
    answer(protocol) {
      const body = FAULT_WIRES[protocol].streamWithoutEnd;
      return {
        status: 200,
        headers: FAULT_WIRES[protocol].streamHeaders,
        body: body.slice(0, body.length - 9),
        cut: true,
      };
    },
    expected: () => ({ code: 'connection', retryable: true }),
  },
  {
    id: 'stream-empty',
    cause: 'an empty 200 stream',
    modes: ['stream'],
    answer: (protocol) => ({ status: 200, headers: FAULT_WIRES[protocol].streamHeaders, body: '' }),
    expected: () => ({ code: 'connection', retryable: true }),
  },
  {
    id: 'stream-error-event',
    cause: "the provider's error event inside a 200 stream (overloaded)",
    modes: ['stream'],
    answer: (protocol) => ({
      status: 200,
      headers: FAULT_WIRES[protocol].streamHeaders,
      body: FAULT_WIRES[protocol].streamErrorEvent.body,
    }),
    expected: (protocol) => ({
      code: 'overloaded',
      retryable: true,
      providerCode: FAULT_WIRES[protocol].streamErrorEvent.providerCode,
      messageIncludes: FAULT_WIRES[protocol].streamErrorEvent.message,
    }),
  },
];
