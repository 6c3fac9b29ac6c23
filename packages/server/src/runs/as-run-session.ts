import type { Session } from '@toolcircuit/core';

/**
 * The caller's session for a run of theirs: a run is resumed (or recovered) under the session id that
 * started it (the runner binds it to that session), while the rights and confirmations are those of the
 * session given now (the runner re-checks the rights). Another human's session is left as it is: the
 * runner refuses it.
 */
export function asRunSession(session: Session, run: { readonly sessionId: string; readonly humanId: string }): Session {
  if (session.id === run.sessionId || session.humanId !== run.humanId) return session;
  return Object.freeze({ ...session, id: run.sessionId });
}
