import { HttpProblem } from '../http/http-problem.js';
import type { ApprovalView } from '../runs/approval-view.js';

/** What an approval id names: the call of the chat's run, and the digests of what the human is shown. */
export interface ApprovalRef {
  readonly chatId: string;
  readonly runId: string;
  readonly callId: string;
  readonly inputDigest: string;
  readonly taintDigest?: string;
}

const PREFIX = 'tc1.';

/**
 * The `approvalId` of a `tool-approval-request`. `addToolApprovalResponse` sends it back unchanged, so it
 * carries what the decision is bound to: the run and call, and the argument and taint digests of the request
 * the human was shown. The server checks them against the run as it is now, so an approval given on other
 * arguments or on older untrusted sources (a stale tab, a replayed request) is refused; the run is reached
 * only if it is the caller's. Nothing in it is secret or trusted: it is a claim the server verifies.
 */
export function approvalIdOf(chatId: string, approval: ApprovalView): string {
  const ref = {
    c: chatId,
    r: approval.runId,
    k: approval.callId,
    i: approval.inputDigest,
    ...(approval.taintDigest === undefined ? {} : { t: approval.taintDigest }),
  };
  return PREFIX + Buffer.from(JSON.stringify(ref), 'utf8').toString('base64url');
}

/** The reference an approval id names; 400 for an id this server did not issue. */
export function parseApprovalId(id: string): ApprovalRef {
  const ref = id.startsWith(PREFIX) ? decode(id.slice(PREFIX.length)) : undefined;
  const { c, r, k, i, t } = (ref ?? {}) as Record<string, unknown>;
  if (
    typeof c !== 'string' ||
    typeof r !== 'string' ||
    typeof k !== 'string' ||
    typeof i !== 'string' ||
    (t !== undefined && typeof t !== 'string')
  ) {
    throw new HttpProblem(
      400,
      'invalid_body',
      `approval "${id.slice(0, 60)}" was not issued by this server: answer the approvals of this chat's stream.`,
    );
  }
  return { chatId: c, runId: r, callId: k, inputDigest: i, ...(t === undefined ? {} : { taintDigest: t }) };
}

function decode(text: string): unknown {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
