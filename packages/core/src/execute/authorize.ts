import { everySession, type ToolRight } from '../catalogue/tool.js';
import type { Session } from '../session/session.js';

/**
 * The third check. It reads the session only: what the model wrote (in its text or in the arguments) has no
 * say. Exact match, no wildcards, and a missing or malformed right denies.
 */
export function isAuthorized(right: ToolRight, session: Session): boolean {
  if (right === everySession) return true;
  return typeof right === 'string' && right !== '' && session.rights.has(right);
}
