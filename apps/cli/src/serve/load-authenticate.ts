import { timingSafeEqual } from 'node:crypto';
import type { Session } from '@toolcircuit/core';
import type { Authenticate } from '@toolcircuit/server';
import { importModule } from '../catalogue/import-module.js';
import { UsageError } from '../errors/usage-error.js';

/** An application's `authenticate(request) → session | undefined`, exported by `--auth <module>`. */
export async function loadAuthenticate(file: string): Promise<Authenticate> {
  const exports = await importModule(file);
  const value = exports['authenticate'] ?? exports['default'];
  if (typeof value !== 'function') {
    throw new UsageError(
      `${file} exports no authenticate function.`,
      'Export one: `export async function authenticate(request) { … return session or undefined; }` (or a default export).',
    );
  }
  return value as Authenticate;
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
