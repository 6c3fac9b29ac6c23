import { journalContentOf, journaledMediaOf } from '../content/journal-content.js';
import { journalDataFlowOf } from '../data-flow/data-flow-report.js';
import { isoNow } from '../journal/iso-now.js';
import type { JournalEntry } from '../journal/journal.js';
import { jsonDigest } from '../json/canonical-json.js';
import type { ToolResultContent } from '../messages/messages.js';
import { type Attempt, digestOf, journalInputOf } from './attempt.js';
import { journalProvenanceOf } from './call-provenance.js';
import { journalRepairOf } from './repair-attempt.js';
import type { Verdict } from './verdict.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The journal entry of an answered attempt. Built field by field in one fixed order (the order entries have
 * always had) instead of a literal of conditional spreads: each spread of `{}` or `{ key }` cost a copy, and
 * every entry now passes through the same few hidden classes.
 */
export function journalEntryOf(
  attempt: Attempt,
  verdict: Verdict,
  content: ToolResultContent,
  detail: string | undefined,
  durationMs: number,
): JournalEntry {
  const { call, context } = attempt;
  const entry: Writable<JournalEntry> = {
    at: attempt.at ?? isoNow(),
    runId: attempt.runId,
    sessionId: context.session.id,
    humanId: context.session.humanId,
    turn: context.turn ?? 1,
    callId: call.id,
  } as Writable<JournalEntry>;
  if (call.originalId !== undefined) entry.originalCallId = call.originalId;
  entry.toolName = call.name;
  // Its own copy again: whatever the tool did to its input, the journal keeps what the model sent.
  entry.input = journalInputOf(attempt);
  entry.inputDigest = digestOf(attempt);
  entry.verdict = verdict.kind;
  entry.durationMs = durationMs;
  if (call.rawInput !== undefined && call.inputError !== undefined) entry.rawInput = call.rawInput;
  if (verdict.kind === 'refused') entry.reason = verdict.reason;
  if (detail !== undefined) entry.detail = detail;
  if (verdict.kind === 'executed') {
    // Binary parts are digested as their journal form (digest, type, size), never as their bytes: the digest
    // of a result without them is what it always was, and the entry lists them so an audit can match each.
    const media = journaledMediaOf(content);
    entry.outputDigest = jsonDigest(media === undefined ? content : journalContentOf(content));
    if (media !== undefined) entry.outputMedia = media;
  }
  if (context.provenance !== undefined) entry.provenance = journalProvenanceOf(attempt);
  if (context.step !== undefined) entry.step = context.step;
  if (attempt.dataFlow !== undefined) entry.dataFlow = journalDataFlowOf(attempt.dataFlow);
  else if (attempt.references !== undefined) entry.dataFlow = journalDataFlowOf({ references: attempt.references });
  if (attempt.repairNote !== undefined || attempt.repairOf !== undefined) {
    const { repair } = journalRepairOf(attempt);
    if (repair !== undefined) entry.repair = repair;
  }
  if (context.outputSchemaDigest !== undefined) entry.outputSchemaDigest = context.outputSchemaDigest;
  const protocol = context.catalogue.get(call.name)?.definition.protocol;
  if (protocol !== undefined) entry.protocol = protocol;
  return entry;
}
