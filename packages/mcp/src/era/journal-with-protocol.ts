import type { CallProtocol, Journal } from '@toolcircuit/core';

/** The application's journal, each entry of a served call stamped with the revision it arrived on. */
export function journalWithProtocol(journal: Journal, protocol: CallProtocol): Journal {
  return {
    append: (entry, detail) => journal.append({ ...entry, protocol }, detail),
    ...(journal.note === undefined ? {} : { note: (note) => journal.note?.(note) }),
  };
}
