import type { PausedRun } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { BackedStore, createMemoryStore, InvalidStoreOptionsError, type JournalPolicy } from '../../src/index.js';
import { MemoryBackend } from '../../src/memory/memory-backend.js';
import type { StoredJournalRow } from '../../src/store/store-backend.js';
import { describeLeaseConformance } from '../store/lease-conformance.js';
import { describeStoreConformance, pausedText, type StoreHarness } from '../store/store-conformance.js';
import { indexColumns } from '../support/raw-rows.js';
import { startPaused, world } from '../support/world.js';

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
      replacePausedState: async (runId: string, paused: PausedRun, layout = 'canonical') => {
        await backend.write(async (tx) => {
          const run = await tx.getRun(runId);
          if (run === undefined) throw new Error(`no run ${runId}`);
          await tx.updateRun({ ...run, pausedJson: pausedText(paused, layout) });
        });
      },
    },
    close: () => store.close(),
  };
}

describeStoreConformance('memory', memoryHarness);
describeLeaseConformance('memory', memoryHarness);

describe('journal keys', () => {
  it('refuses a key too short to resist guessing, or with an id that cannot be stored, naming the option', () => {
    expect(() => createMemoryStore({ journal: { key: { id: 'k1', secret: 'short' } } })).toThrow(
      /Store option "journal.key" is invalid: the secret of key "k1" has 5 bytes; use at least 32/,
    );
    expect(() => createMemoryStore({ journal: { key: { id: 'k 1', secret: 'x'.repeat(32) } } })).toThrow(
      InvalidStoreOptionsError,
    );
  });

  it('chains under the key, and an export verifies with it and not without it', async () => {
    const key = { id: 'k1', secret: new Uint8Array(32).fill(7) };
    const store = createMemoryStore({ journal: { key } });
    await startPaused(world(), store);
    expect(await store.verifyJournal()).toMatchObject({ ok: true, entries: 3, unkeyedEntries: 0 });
    const copy = createMemoryStore({ snapshot: store.exportJournal() });
    expect(await copy.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unverifiable', entries: 0 });
    expect(await copy.verifyJournal({ keys: [key] })).toMatchObject({ ok: true, entries: 3 });
  });
});
