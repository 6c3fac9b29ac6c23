import { createSession, type Session } from '@toolcircuit/core';

/**
 * A session as plain data, so that it can travel in a durable run's input (engines record inputs as JSON).
 * The application builds it from its own authentication, as it would build a `Session`.
 */
export interface SessionData {
  readonly id: string;
  readonly humanId: string;
  readonly rights: readonly string[];
}

export function sessionData(session: Session): SessionData {
  return { id: session.id, humanId: session.humanId, rights: [...session.rights] };
}

/** The default way back: a fresh session with in-memory confirmations (approvals come with each resume). */
export function sessionOf(data: SessionData): Session {
  return createSession({ id: data.id, humanId: data.humanId, rights: data.rights });
}
