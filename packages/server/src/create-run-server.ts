import type { Session } from '@toolcircuit/core';
import { createDurableRunner } from '@toolcircuit/stores';
import { ChatRoute } from './chat/chat-route.js';
import { InvalidServerOptionError } from './errors/invalid-server-option-error.js';
import { MissingServerOptionError } from './errors/missing-server-option-error.js';
import { DEFAULT_MAX_EVENTS_PER_RUN, RunEventLog } from './events/run-event-log.js';
import { RunEventWriter } from './events/run-event-writer.js';
import { RunEventsRoute } from './events/run-events-route.js';
import { checkOrigin } from './http/check-origin.js';
import { HttpProblem, jsonResponse, problemResponse } from './http/http-problem.js';
import { readJsonBody } from './http/read-json-body.js';
import { matchRoute } from './http/routes.js';
import { checkRecovery } from './recovery/check-recovery.js';
import { startRecovery } from './recovery/run-recovery.js';
import {
  type Authenticate,
  DEFAULT_JOURNAL_TAIL,
  DEFAULT_MAX_BODY_BYTES,
  type RunServerOptions,
} from './run-server-options.js';
import { RunRoutes } from './runs/run-routes.js';

export interface RunServer {
  /** Answers one request; never throws (a failure is a 500 with a JSON body). */
  handle(request: Request): Promise<Response>;
  /**
   * Stops taking over other processes' runs (the `recovery` sweep). Resolves once the runs it took over
   * reached their next stop; aborts nothing. Without `recovery`, resolves at once.
   */
  close(): Promise<void>;
}

/**
 * Durable runs over HTTP, as one Web-standard handler: start a run, read it, list the caller's pending
 * approvals with the informed request, decide them (bound to the arguments and the untrusted sources the
 * human was shown; of two identical decisions the tool runs once), cancel. Runs live in the store, so a
 * server started again over the same store goes on with the runs it paused. Serve it from Node with
 * `toNodeListener`, or hand `handle` to any fetch-based runtime.
 */
export function createRunServer(options: RunServerOptions): RunServer {
  const { authenticate, allowedOrigins, maxBodyBytes, journalTail, onError, recovery, ...runnerOptions } =
    checkOptions(options);
  const report = onError ?? ((error: unknown) => console.error('@toolcircuit/server: request failed', error));
  const limit = maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const events = new RunEventLog();
  const { store } = runnerOptions;
  // Stores that keep run events (schema 5) get them, batched per turn; others stream from memory only.
  const writer =
    store.appendRunEvents === undefined
      ? undefined
      : new RunEventWriter(
          { appendRunEvents: (request) => store.appendRunEvents?.(request) ?? Promise.resolve() },
          DEFAULT_MAX_EVENTS_PER_RUN,
          (error) => console.error('@toolcircuit/server: run events could not be stored', error),
        );
  const routes = new RunRoutes(
    createDurableRunner(runnerOptions),
    store,
    journalTail ?? DEFAULT_JOURNAL_TAIL,
    events,
    writer,
  );
  const eventRoute = new RunEventsRoute(store, events);
  const chatRoute = new ChatRoute(routes, store);
  // Started with the server: the runs a dead process left mid-turn are taken over at once, then the sweep
  // goes on while the server lives.
  const sweep =
    recovery === undefined
      ? undefined
      : startRecovery(
          store,
          (runId, context) => routes.recover(runId, context),
          recovery,
          runnerOptions.clock ?? (() => new Date()),
        );

  async function handle(request: Request): Promise<Response> {
    const route = matchRoute(request);
    const session = await sessionOf(authenticate, request);
    if (route.write) checkOrigin(request, allowedOrigins);
    if (route.name === 'events') return eventRoute.answer(route.runId, session, request);
    const body = route.write ? await readJsonBody(request, limit) : undefined;
    // A chat stream's failure comes after its answer began: told to `onError` as a 500 would be.
    if (route.name === 'chat') return chatRoute.answer(session, body, (error) => reportQuietly(report, error, request));
    return routes.answer(route, session, body);
  }

  return {
    handle: async (request) => {
      try {
        return await handle(request);
      } catch (error) {
        if (error instanceof HttpProblem) return problemResponse(error);
        // Not the caller's fault; the details go to the server's log, not into the answer.
        reportQuietly(report, error, request);
        return jsonResponse(500, { error: { code: 'internal_error', message: 'the server failed to answer.' } });
      }
    },
    close: async () => {
      await sweep?.stop();
    },
  };
}

function reportQuietly(report: (error: unknown, request: Request) => void, error: unknown, request: Request): void {
  try {
    report(error, request);
  } catch {
    // A failing reporter must not turn a 500 into a thrown handler.
  }
}

async function sessionOf(authenticate: Authenticate, request: Request): Promise<Session> {
  const session = await authenticate(request);
  if (session === undefined) {
    throw new HttpProblem(
      401,
      'unauthenticated',
      'sign in first: this request carries no session the server accepts.',
      {
        'www-authenticate': 'Bearer',
      },
    );
  }
  return session;
}

function checkOptions(options: RunServerOptions): RunServerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new MissingServerOptionError('store', 'pass { store, authenticate, model, catalogue }.');
  }
  const store = options.store as Partial<RunServerOptions['store']> | undefined;
  if (typeof store?.getRun !== 'function' || typeof store.claimRun !== 'function') {
    throw new MissingServerOptionError(
      'store',
      'a durable store from @toolcircuit/stores (openSqliteStore, openPostgresStore or createMemoryStore) keeps the runs.',
    );
  }
  if (typeof options.authenticate !== 'function') {
    throw new MissingServerOptionError(
      'authenticate',
      "a function (request) => session | undefined that builds the caller's session from your own authentication.",
    );
  }
  if (options.model === undefined) throw new MissingServerOptionError('model', 'the model that plays the runs.');
  if (options.catalogue === undefined) throw new MissingServerOptionError('catalogue', 'the tools the runs may call.');
  const { maxBodyBytes, journalTail, allowedOrigins } = options;
  if (maxBodyBytes !== undefined && !(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new InvalidServerOptionError(
      'maxBodyBytes',
      `must be a positive whole number of bytes (got ${String(maxBodyBytes)}).`,
    );
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new InvalidServerOptionError('onError', 'must be a function (error, request) => void.');
  }
  checkRecovery(options.recovery);
  if (journalTail !== undefined && !(Number.isSafeInteger(journalTail) && journalTail >= 0)) {
    throw new InvalidServerOptionError('journalTail', `must be a whole number ≥ 0 (got ${String(journalTail)}).`);
  }
  if (allowedOrigins !== undefined) {
    const bad = Array.isArray(allowedOrigins)
      ? allowedOrigins.find((origin) => typeof origin !== 'string' || !isOrigin(origin))
      : allowedOrigins;
    if (bad !== undefined || !Array.isArray(allowedOrigins)) {
      throw new InvalidServerOptionError(
        'allowedOrigins',
        `must be a list of origins such as "https://app.example" (scheme, host and port, no path); ${JSON.stringify(bad)} is not one.`,
      );
    }
  }
  return options;
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}
