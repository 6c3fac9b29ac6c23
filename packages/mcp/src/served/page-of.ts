import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isAuthorized, type Session, type ToolRight } from '@toolcircuit/core';

/**
 * One page of a list request: `pageSize` items from the client's cursor on, and the cursor of the next page
 * when there is one. The cursor is opaque to the client (the offset, base64url-encoded); one it did not get
 * from this server is refused as invalid params, as the specification asks. No `pageSize`: everything at once.
 */
export function pageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number | undefined,
): { readonly items: T[]; readonly nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor, items.length);
  if (pageSize === undefined) return { items: items.slice(start) };
  const end = start + pageSize;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(String(end), 'utf8').toString('base64url') } : {}),
  };
}

function offsetOf(cursor: string, length: number): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(offset) || offset > length) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
  }
  return offset;
}

/** One page of what the session holds the right to see (what it may not see is not counted either). */
export function authorizedPageOf<T extends { readonly right: ToolRight }>(
  items: readonly T[],
  session: Session,
  cursor: string | undefined,
  pageSize: number | undefined,
): { readonly items: T[]; readonly nextCursor?: string } {
  return pageOf(
    items.filter((item) => isAuthorized(item.right, session)),
    cursor,
    pageSize,
  );
}
