import { HttpProblem } from './http-problem.js';

/**
 * The CSRF defence of state-changing routes, independent of cookies: a browser names the page's origin in
 * `Origin` on every cross-site POST, and a page of another origin is refused. With no `allowedOrigins`,
 * only the server's own origin (that of the request URL) is allowed. A request without `Origin` (a server,
 * a command-line client) is not a browser acting for another site, and passes: its credentials are its own.
 */
export function checkOrigin(request: Request, allowedOrigins: readonly string[] | undefined): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  const allowed = allowedOrigins ?? [new URL(request.url).origin];
  if (!allowed.includes(origin)) {
    throw new HttpProblem(
      403,
      'forbidden_origin',
      `requests from origin "${origin}" may not change runs here; the server allows ${allowed.map((o) => `"${o}"`).join(', ')}.`,
    );
  }
}
