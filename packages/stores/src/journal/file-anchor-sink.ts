import { appendFile, open, readFile } from 'node:fs/promises';
import type { JournalAnchor, JournalAnchorSink } from './journal-anchor.js';
import { lastAnchorOf } from './journal-anchor.js';
import type { JournalHead } from './journal-record.js';

/**
 * A sink that appends each anchor as one JSON line to `file` and flushes it to disk. Put the file where the
 * database's writers cannot change it (another machine, append-only storage): an anchor is only as
 * trustworthy as the place it is kept.
 */
export function fileAnchorSink(file: string): JournalAnchorSink {
  return async (anchor: JournalAnchor) => {
    await appendFile(file, `${JSON.stringify(anchor)}\n`, 'utf8');
    const handle = await open(file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
}

/** The last anchor of a file written by `fileAnchorSink`. */
export async function readAnchorFile(file: string): Promise<JournalAnchor | JournalHead> {
  return lastAnchorOf(await readFile(file, 'utf8'));
}
