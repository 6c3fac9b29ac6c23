import { gateOf } from './gate-view.js';
import type { CallRecord, DecisionRecord, TraceRecord } from './trace-types.js';

/**
 * A journal item as trace records: a core `JournalEntry`, or a store row (`{ seq, hash, record }`) whose
 * record is a call or a human decision. Store bookkeeping rows (start, recovery…) give no record.
 * `undefined`: not a journal item.
 */
export function journalItemToRecords(item: Record<string, unknown>): TraceRecord[] | undefined {
  const row = item['record'];
  if (row !== null && typeof row === 'object' && typeof item['hash'] === 'string') {
    const record = row as Record<string, unknown>;
    if (record['kind'] === 'call') {
      const call = callOf(record, item['hash']);
      return call === undefined ? undefined : [call];
    }
    if (record['kind'] === 'decision') return [decisionOf(record)];
    return typeof record['kind'] === 'string' ? [] : undefined;
  }
  const call = callOf(item, undefined);
  return call === undefined ? undefined : [call];
}

function callOf(entry: Record<string, unknown>, rowHash: unknown): CallRecord | undefined {
  const { runId, callId, toolName, verdict, turn, at } = entry;
  if (typeof runId !== 'string' || typeof callId !== 'string' || typeof toolName !== 'string') return undefined;
  if (typeof verdict !== 'string' || typeof turn !== 'number' || typeof at !== 'string') return undefined;
  const start = Date.parse(at);
  const duration = typeof entry['durationMs'] === 'number' ? entry['durationMs'] : 0;
  const output = entry['output'] as { content?: unknown } | undefined;
  const provenance = entry['provenance'] as { outputTrust?: unknown; gate?: unknown } | null | undefined;
  const outputTrust = provenance?.outputTrust;
  // The journal keeps flagged argument paths only: their values are read back from the entry's input.
  const gate = gateOf(provenance?.gate, entry['input']);
  return {
    type: 'call',
    runId,
    turn,
    // Journal entries do not keep the position; the order of the entries gives it.
    index: -1,
    callId,
    tool: toolName,
    start,
    end: start + duration,
    verdict: verdict as CallRecord['verdict'],
    ...(typeof entry['reason'] === 'string' ? { reason: entry['reason'] as NonNullable<CallRecord['reason']> } : {}),
    isError: verdict !== 'executed',
    inputDigest: typeof entry['inputDigest'] === 'string' ? entry['inputDigest'] : null,
    ...(typeof entry['outputDigest'] === 'string' ? { outputDigest: entry['outputDigest'] } : {}),
    ...(typeof rowHash === 'string' ? { entryDigest: rowHash } : {}),
    retries: 0,
    resumed: false,
    provenance: { turn, provider: 'journal' },
    ...(outputTrust === 'trusted' || outputTrust === 'untrusted' ? { outputTrust } : {}),
    ...(gate === undefined ? {} : { gate }),
    ...(entry['input'] === undefined ? {} : { input: entry['input'] as NonNullable<CallRecord['input']> }),
    ...(output?.content === undefined ? {} : { result: output.content as NonNullable<CallRecord['result']> }),
    ...(typeof entry['detail'] === 'string' ? { message: entry['detail'] } : {}),
  };
}

function decisionOf(record: Record<string, unknown>): DecisionRecord {
  const at = typeof record['at'] === 'string' ? Date.parse(record['at']) : 0;
  return {
    type: 'decision',
    runId: String(record['runId']),
    turn: Number(record['turn']),
    at,
    callId: String(record['callId']),
    tool: String(record['toolName']),
    approved: record['approved'] === true,
    inputDigest: String(record['inputDigest']),
    by: String(record['humanId']),
    ...(typeof record['note'] === 'string' ? { note: record['note'] } : {}),
  };
}
