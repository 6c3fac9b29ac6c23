import { HttpProblem } from './http-problem.js';

/** What a request asks for, once its path and method are known. */
export type Route =
  | { readonly name: 'start'; readonly write: true }
  | { readonly name: 'read'; readonly write: false; readonly runId: string }
  | { readonly name: 'decide'; readonly write: true; readonly runId: string }
  | { readonly name: 'cancel'; readonly write: true; readonly runId: string }
  | { readonly name: 'events'; readonly write: false; readonly runId: string }
  | { readonly name: 'approvals'; readonly write: false }
  | { readonly name: 'chat'; readonly write: true };

/** The route of a request: 404 for an unknown path, 405 (with `Allow`) for a known path and another method. */
export function matchRoute(request: Request): Route {
  const { pathname } = new URL(request.url);
  const parts = pathname.split('/').filter((part) => part !== '');
  const method = request.method.toUpperCase();
  const [first, id, action] = parts;
  if (parts.length === 1 && first === 'runs') return only(method, 'POST', { name: 'start', write: true });
  if (parts.length === 1 && first === 'chat') return only(method, 'POST', { name: 'chat', write: true });
  if (parts.length === 1 && first === 'approvals') return only(method, 'GET', { name: 'approvals', write: false });
  if (first === 'runs' && id !== undefined && parts.length <= 3) {
    const runId = decoded(id);
    if (action === undefined) return only(method, 'GET', { name: 'read', write: false, runId });
    if (action === 'decisions') return only(method, 'POST', { name: 'decide', write: true, runId });
    if (action === 'cancel') return only(method, 'POST', { name: 'cancel', write: true, runId });
    if (action === 'events') return only(method, 'GET', { name: 'events', write: false, runId });
  }
  throw new HttpProblem(404, 'not_found', `there is no route ${method} ${pathname}.`);
}

function only(method: string, allowed: 'GET' | 'POST', route: Route): Route {
  if (method === allowed) return route;
  throw new HttpProblem(405, 'method_not_allowed', `this route takes ${allowed}, not ${method}.`, { allow: allowed });
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpProblem(404, 'run_not_found', 'there is no such run.');
  }
}
