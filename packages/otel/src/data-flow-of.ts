import { type JournalDataFlow, journalDataFlowOf, type TrustedOrigin } from '@toolcircuit/core';
import type { CallSettled } from './loop-observer.js';

/**
 * What the run's data-flow options found about a call, as the journal keeps it (paths and sources, never the
 * values): from its journal entry, else from its verdict (a refused or held call, in a run without a journal).
 */
export function dataFlowOf(call: CallSettled): JournalDataFlow | undefined {
  const fromEntry = call.entry?.dataFlow;
  if (fromEntry !== undefined) return fromEntry;
  const { verdict } = call.event;
  if (verdict.kind !== 'refused' && verdict.kind !== 'awaiting_confirmation') return undefined;
  return verdict.dataFlow === undefined ? undefined : journalDataFlowOf(verdict.dataFlow);
}

/** `/iban=user`, `/amount=vouched:sam`, `/to=tool:get_contacts`, `/memo=untrusted`: one line per checked value. */
export function originLines(flow: JournalDataFlow | undefined): string[] | undefined {
  return flow?.checked?.map((checked) => `${checked.path}=${originName(checked.trustedIn)}`);
}

/** `/iban=$doc1.iban<read_invoice>`: which values came from which quarantined document. */
export function referenceLines(flow: JournalDataFlow | undefined): string[] | undefined {
  return flow?.references?.map((reference) => `${reference.path}=${reference.reference}<${reference.toolName}>`);
}

function originName(origin: TrustedOrigin | undefined): string {
  if (origin === undefined) return 'untrusted';
  switch (origin.kind) {
    case 'tool':
      return `tool:${origin.toolName}`;
    case 'vouched':
      return `vouched:${origin.by}`;
    default:
      return origin.kind;
  }
}
