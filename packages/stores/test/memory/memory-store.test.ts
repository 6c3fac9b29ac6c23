import { canonicalJson, type PausedRun } from '@toolcircuit/core';
import { BackedStore, type JournalPolicy } from '../../src/index.js';
import { MemoryBackend } from '../../src/memory/memory-backend.js';
import type { StoredJournalRow } from '../../src/store/store-backend.js';
import { describeStoreConformance, type StoreHarness } from '../store/store-conformance.js';
import { indexColumns } from '../support/raw-rows.js';

async function memoryHarness(options: { readonly journal?: JournalPolicy } = {}): Promise<StoreHarness> {
  const backend = new MemoryBackend();
  const store = new BackedStore(backend, options.journal);
  return {
    store,
    // One process: the second "worker" shares the backend, as two requests of one server would.
    second: new BackedStore(backend, options.journal),
    tamper: {
      rows: async () =>
        backend.snapshot().rows.map(({ seq, prevHash, hash, recordJson, keyId }) => ({
          seq,
          prevHash,
          hash,
          recordJson,
          keyId: keyId ?? null,
        })),
      replaceJournal: async (rows, head) => {
        const stored: StoredJournalRow[] = rows.map((row) => ({ ...row, ...indexColumns(row) }));
        return new BackedStore(new MemoryBackend({ rows: stored, head }), options.journal);
      },
      replacePausedState: async (runId: string, paused: PausedRun) => {
        await backend.write(async (tx) => {
          const run = await tx.getRun(runId);
          if (run === undefined) throw new Error(`no run ${runId}`);
          await tx.updateRun({ ...run, pausedJson: canonicalJson(paused) });
        });
      },
    },
    close: () => store.close(),
  };
}

describeStoreConformance('memory', memoryHarness);
