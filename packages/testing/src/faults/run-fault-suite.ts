import { type Model, type ModelRequest, ProviderError, type StreamEvent } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import type { ConformanceTestApi } from '../conformance/run-conformance-suite.js';
import { FAULT_CASES, type FaultCase, type FaultExpectation, type FaultMode } from './fault-cases.js';
import { withFaultServer } from './fault-server.js';
import { playInterruptedRun } from './interrupted-run-scenario.js';

/** What one fault case gave: the error the adapter reported, and whether it still reported a turn. */
export interface FaultOutcome {
  /** The thrown error (`generate`) or the stream's `error` event's error, as it came. */
  readonly error: unknown;
  /** `stream` only: a `turn-end` was emitted (it must not be, for a turn the provider did not finish). */
  readonly turnEnded: boolean;
  /** `stream` only: the terminal events in order; exactly one is allowed. */
  readonly terminalEvents: number;
  /** Requests that reached the server (more than one: someone retried). */
  readonly requests: number;
}

/**
 * What an SDK does not let an adapter see, so that the fault model cannot be met in full over it (each is
 * written in the fault table of the providers guide, docs/guides/providers-and-config.md):
 * - `no-provider-code`: the SDK drops the error body's own code (`@google/generative-ai` keeps only the
 *   HTTP status and the message), so `providerCode` is not checked;
 * - `stream-body-unseen`: the SDK reads a streamed answer without exposing its headers or its unparsed text
 *   (`@google/generative-ai`), so a 200 HTML page on a stream can only be told apart from a stream cut
 *   mid-event by its effect: a retryable `connection` error, and still no turn.
 */
export type FaultSdkLimit = 'no-provider-code' | 'stream-body-unseen';

export interface FaultSuiteOptions {
  readonly protocol: CassetteProtocol;
  readonly test: ConformanceTestApi;
  /** Names the describe block. Default: the protocol. */
  readonly label?: string;
  /** A model whose SDK talks to `origin` (`http://127.0.0.1:PORT`), with the SDK's own retries off. */
  readonly createModel: (origin: string) => Model;
  readonly limits?: readonly FaultSdkLimit[];
}

const REQUEST: ModelRequest = {
  messages: [{ role: 'user', content: 'List the open case files.' }],
  tools: [
    {
      name: 'lister_dossiers',
      description: 'List case files.',
      inputSchema: { type: 'object', properties: { filtre: { type: 'string' } } },
    },
  ],
};

/** Plays one fault case against a model made for the fault server, in `generate` or `stream`. */
export async function playFaultCase(
  faultCase: FaultCase,
  protocol: CassetteProtocol,
  mode: FaultMode,
  createModel: (origin: string) => Model,
): Promise<FaultOutcome> {
  return withFaultServer(faultCase.answer(protocol, mode), async (server) => {
    const model = createModel(server.url);
    if (mode === 'generate') {
      const error = await model.generate(REQUEST).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return { error, turnEnded: false, terminalEvents: 0, requests: server.requests };
    }
    if (model.stream === undefined) throw new Error('the model does not stream');
    const events: StreamEvent[] = [];
    let thrown: unknown;
    try {
      for await (const event of model.stream(REQUEST)) events.push(event);
    } catch (caught) {
      thrown = caught;
    }
    const terminal = events.filter((event) => event.type === 'turn-end' || event.type === 'error');
    const last = events.at(-1);
    return {
      error: thrown ?? (last?.type === 'error' ? last.error : undefined),
      turnEnded: events.some((event) => event.type === 'turn-end'),
      terminalEvents: terminal.length,
      requests: server.requests,
    };
  });
}

/** The differences between an outcome and what the fault model expects (empty: it conforms). */
export function faultProblems(outcome: FaultOutcome, expected: FaultExpectation, mode: FaultMode): string[] {
  const problems: string[] = [];
  if (mode === 'stream') {
    if (outcome.turnEnded) problems.push('the stream reported a turn although the provider did not finish one');
    if (outcome.terminalEvents !== 1) problems.push(`the stream ended with ${outcome.terminalEvents} terminal events`);
  }
  if (outcome.requests > 1) problems.push(`${outcome.requests} requests reached the server (the SDK retried)`);
  const error = outcome.error;
  if (!(error instanceof ProviderError)) {
    problems.push(`expected a ProviderError, got ${describe(error)}`);
    return problems;
  }
  const fields: (keyof FaultExpectation & keyof ProviderError)[] = [
    'code',
    'retryable',
    'status',
    'retryAfterMs',
    'providerCode',
  ];
  for (const field of fields) {
    if (!(field in expected)) continue;
    if (error[field] !== expected[field]) {
      problems.push(`${field} is ${String(error[field])}, expected ${String(expected[field])}`);
    }
  }
  if (expected.messageIncludes !== undefined && !error.message.includes(expected.messageIncludes)) {
    problems.push(
      `message ${JSON.stringify(error.message)} does not carry ${JSON.stringify(expected.messageIncludes)}`,
    );
  }
  return problems;
}

/**
 * Registers one test per row of the fault model and mode for an adapter: each serves the fault from a
 * local server through the adapter's official SDK and checks the `ProviderError` it reports.
 */
export function runFaultSuite(options: FaultSuiteOptions): void {
  const { describe, it, expect } = options.test;
  describe(`fault model: ${options.label ?? options.protocol}`, () => {
    for (const faultCase of FAULT_CASES) {
      for (const mode of faultCase.modes) {
        it(`${mode}: ${faultCase.id} (${faultCase.cause})`, async () => {
          const outcome = await playFaultCase(faultCase, options.protocol, mode, options.createModel);
          const expected = withinLimits(faultCase, mode, faultCase.expected(options.protocol, mode), options.limits);
          expect(faultProblems(outcome, expected, mode)).toEqual([]);
        });
      }
    }
    it('a run whose provider fails on turn 3 of 5, continued from its state, runs every call exactly once', async () => {
      const outcome = await playInterruptedRun({
        protocol: options.protocol,
        createModel: ({ baseURL }) => options.createModel(baseURL),
      });
      expect(outcome.interrupted?.turn).toBe(3);
      expect(outcome.result.status).toBe('completed');
      expect(outcome.result.turns.length).toBe(5);
      expect(outcome.executions).toEqual(['R-1', 'R-2', 'R-3', 'R-4', 'R-5']);
      expect(outcome.unserved).toBe(0);
      expect(outcome.mismatches).toBe(0);
    });
  });
}

/** The expectation an SDK with these limits can meet (see {@link FaultSdkLimit}). */
export function withinLimits(
  faultCase: FaultCase,
  mode: FaultMode,
  expected: FaultExpectation,
  limits: readonly FaultSdkLimit[] = [],
): FaultExpectation {
  let result = expected;
  if (limits.includes('no-provider-code') && 'providerCode' in result) {
    const { providerCode: _dropped, ...rest } = result;
    result = rest;
  }
  if (limits.includes('stream-body-unseen') && mode === 'stream' && faultCase.id === 'html-200') {
    result = { code: 'connection', retryable: true };
  }
  return result;
}

function describe(value: unknown): string {
  if (value === undefined) return 'no error';
  if (value instanceof Error) return `${value.constructor.name}: ${value.message}`;
  return typeof value;
}
