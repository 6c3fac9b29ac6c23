import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createSession, type Session } from '@toolcircuit/core';
import type { Authenticate, RecoveryOptions } from '@toolcircuit/server';
import { importModule } from '../catalogue/import-module.js';
import { UsageError } from '../errors/usage-error.js';

/** What `--auth <module>` exports: who is asking, and whose session continues a run left mid-turn. */
export interface LoadedAuth {
  readonly authenticate: Authenticate;
  readonly sessionFor?: RecoveryOptions['sessionFor'];
}

/**
 * An application's `authenticate(request) → session | undefined` (or default export), exported by
 * `--auth <module>`, and its optional `sessionFor(run) → session | undefined`, the session of a run's
 * human, with which the server continues the runs a stopped server left mid-turn.
 */
export async function loadAuthenticate(file: string): Promise<LoadedAuth> {
  const exports = await importModule(file);
  const value = exports['authenticate'] ?? exports['default'];
  if (typeof value !== 'function') {
    throw new UsageError(
      `${file} exports no authenticate function.`,
      'Export one: `export async function authenticate(request) { … return session or undefined; }` (or a default export).',
    );
  }
  const sessionFor = exports['sessionFor'];
  if (sessionFor !== undefined && typeof sessionFor !== 'function') {
    throw new UsageError(
      `${file} exports a sessionFor that is not a function.`,
      'Export `sessionFor(run) { … return the session of run.humanId, or undefined; }`, or remove it.',
    );
  }
  return {
    authenticate: value as Authenticate,
    ...(sessionFor === undefined ? {} : { sessionFor: sessionFor as RecoveryOptions['sessionFor'] }),
  };
}

/**
 * The local human's login: whoever sends `Authorization: Bearer <token>` is `session`. The token is made at
 * start and printed once; it is compared in constant time.
 */
export function tokenAuthenticate(token: string, session: Session): Authenticate {
  const expected = Buffer.from(token);
  return (request) => {
    const given = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (given === undefined) return undefined;
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected) ? session : undefined;
  };
}

/**
 * The local human's login (no `--auth`): whoever holds `token` acts as that human, in one session of its
 * own with the human's rights; the runs of that human a stopped server left mid-turn go on under it.
 */
export function localLogin(
  token: string,
  human: { readonly humanId: string; readonly rights: Iterable<string> },
): LoadedAuth {
  const session = createSession({ id: `serve-${randomUUID()}`, humanId: human.humanId, rights: [...human.rights] });
  return {
    authenticate: tokenAuthenticate(token, session),
    sessionFor: (run) => (run.humanId === session.humanId ? session : undefined),
  };
}
