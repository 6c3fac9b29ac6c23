import { canonicalJson, type JournalAppendDetail, type JournalEntry } from '@toolcircuit/core';
import type { JournalAnchorSink } from './journal-anchor.js';
import type { JournalKey } from './journal-key.js';
import type { CallRecord, JournalRecord } from './journal-record.js';
import { scrubSecrets } from './scrub-secrets.js';

/** Default size up to which an executed call's output is kept in the journal (bytes of canonical JSON). */
export const DEFAULT_INLINE_OUTPUT_MAX_BYTES = 2048;

/** What a store keeps of each call in its journal. */
export interface JournalPolicy {
  /**
   * Applied to every record before it is hashed and stored (after the built-in scrubbing): remove or mask
   * what your tools take or return that must not be kept. See `redactInputFields`.
   */
  readonly redact?: (record: JournalRecord) => JournalRecord;
  /**
   * Outputs up to this many bytes are kept with their call; larger ones only as their digest and size.
   * 0 keeps digests only. Default {@link DEFAULT_INLINE_OUTPUT_MAX_BYTES}.
   */
  readonly inlineOutputMaxBytes?: number;
  /**
   * Replace credential-shaped text (API keys, bearer tokens, passwords in URLs, secret-named fields) in
   * every record. Default true; turn off only if your `redact` does better.
   */
  readonly scrubSecrets?: boolean;
  /**
   * Chain new entries with HMAC-SHA256 under this key (held by the application, never stored in the
   * database) instead of plain SHA-256: without the key nobody can append a valid-looking entry or re-hash a
   * changed one. Also used to sign anchors and, with older keys passed to `verifyJournal`, to verify.
   */
  readonly key?: JournalKey;
  /** Where `anchorJournal()` sends anchors when it is given no sink of its own. */
  readonly anchorSink?: JournalAnchorSink;
}

/** The call record a store appends for an executor entry: output kept or digested, then scrubbed and redacted. */
export function callRecordOf(
  entry: JournalEntry,
  detail: JournalAppendDetail | undefined,
  policy: JournalPolicy,
): CallRecord {
  const { seq: _seq, ...rest } = entry;
  const limit = policy.inlineOutputMaxBytes ?? DEFAULT_INLINE_OUTPUT_MAX_BYTES;
  let output: CallRecord['output'];
  if (entry.verdict === 'executed' && detail !== undefined) {
    const bytes = Buffer.byteLength(canonicalJson(detail.result.content), 'utf8');
    output = bytes <= limit ? { bytes, content: detail.result.content } : { bytes };
  }
  return { kind: 'call', ...rest, ...(output === undefined ? {} : { output }) };
}

/** Every record goes through here before it is hashed: scrubbing first, then the application's redaction. */
export function applyPolicy(record: JournalRecord, policy: JournalPolicy): JournalRecord {
  const scrubbed = policy.scrubSecrets === false ? record : scrubSecrets(record);
  return policy.redact === undefined ? scrubbed : policy.redact(scrubbed);
}
