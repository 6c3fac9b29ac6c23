/** Codes Node's sockets and undici give a connection that failed or was lost. */
const TRANSPORT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** What undici's fetch throws when the connection drops before or while the body is read. */
const TRANSPORT_MESSAGES = /^(terminated|fetch failed|other side closed)$|socket hang up|ECONNRESET/i;

const MAX_CAUSE_DEPTH = 8;

/**
 * For adapters: whether an error an SDK let through unwrapped is the connection failing below HTTP (refused,
 * reset, a body cut before its end, a timeout), which is a retryable `connection` fault on every provider.
 * Follows the `cause` chain, where fetch and the SDKs put the socket's error.
 */
export function isTransportFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSPORT_CODES.has(code)) return true;
    if (current.name === 'TimeoutError' || TRANSPORT_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
