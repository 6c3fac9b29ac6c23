// Runner behaviour that does not depend on the store (run on the memory store), and the pure helpers.
import {
  argumentDigest,
  createCatalogue,
  createSession,
  InMemoryConfirmations,
  toolResultText,
} from '@toolcircuit/core';
import { createScriptedModel } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  catalogueChanges,
  catalogueFingerprint,
  createDurableRunner,
  createMemoryStore,
  GENESIS_HASH,
  type JournalRecord,
  REDACTED,
  redactInputFields,
  scrubSecrets,
  scrubSecretText,
  verifyJournal,
} from '../../src/index.js';
import { chainHash } from '../../src/journal/journal-chain.js';
import {
  approveAll,
  done,
  lookupTool,
  marie,
  pausingTurn,
  startPaused,
  toolReplies,
  transferTool,
  user,
  world,
} from '../support/world.js';

describe('durable runner', () => {
  it('an approval never outlives its resume: unused, it is not left in the application confirmation store', async () => {
    const store = createMemoryStore();
    const w = world();
    const paused = await startPaused(w, store);
    const confirmations = new InMemoryConfirmations();
    // The right was withdrawn since the pause: the approved call is refused on its re-check, unused.
    const demoted = createSession({ id: 'session-7', humanId: 'marie', rights: [], confirmations });
    const result = await w.runner(store, [done]).resume('run-1', approveAll(paused), { session: demoted });
    expect(w.executions).toEqual([]);
    expect(toolResultText(toolReplies(result.messages)[0]?.content[1]?.content ?? '')).toMatch(/requires the right/);
    expect(confirmations.outstanding()).toEqual([]);
  });

  it('an approved call whose tool throws an unprintable value is answered as failed, not as an unknown outcome', async () => {
    const store = createMemoryStore();
    const w = world();
    const paused = await startPaused(w, store);
    const hostile = createCatalogue([
      lookupTool(),
      {
        ...transferTool([]),
        run: () => {
          throw Object.create(null);
        },
      },
    ]);
    const runner = createDurableRunner({ store, catalogue: hostile, model: createScriptedModel([done]) });
    const result = await runner.resume('run-1', approveAll(paused), { session: marie() });
    expect(result.status).toBe('completed');
    expect(result.unknownOutcomes).toEqual([]);
    const pay = toolReplies(result.messages)[0]?.content[1];
    expect(pay).toMatchObject({ callId: 'pay', isError: true });
    expect(toolResultText(pay?.content ?? '')).toMatch(/cannot be printed|non-Error/);
    const record = await store.getRun('run-1');
    expect(record?.status).toBe('completed');
  });

  it('the application hooks still run, after the store has recorded the start', async () => {
    const store = createMemoryStore();
    const w = world();
    const paused = await startPaused(w, store);
    const seen: string[] = [];
    await w
      .runner(store, [done], {
        hooks: {
          beforeToolRun: async ({ call }) => {
            const record = await store.getRun('run-1');
            seen.push(`${call.id}:${record?.calls.find((row) => row.callId === call.id)?.state ?? 'none'}`);
          },
          onResult: ({ turn }) => void seen.push(`result ${turn}`),
        },
      })
      .resume('run-1', approveAll(paused), { session: marie() });
    expect(seen).toEqual(['pay:started', 'result 1']);
  });

  it('a worker that stopped mid-turn before its pause: no irreversible call runs without a human', async () => {
    const store = createMemoryStore();
    const w = world();
    // The worker stops just after the lookup's start marker is committed (the tool never returns a result),
    // before the turn's pause on the transfer is stored.
    const stopping = w.runner(store, [pausingTurn()], {
      hooks: {
        beforeToolRun: () => {
          throw new Error('worker stopped');
        },
      },
    });
    await expect(stopping.start({ session: marie(), messages: user, runId: 'run-m' })).rejects.toThrow(
      /worker stopped/,
    );
    const stopped = await store.getRun('run-m');
    expect(stopped).toMatchObject({ status: 'interrupted', started: { turn: 1 } });
    expect(stopped?.calls.map((call) => [call.callId, call.state])).toEqual([['lookup', 'started']]);

    const recovered = await w.runner(store, [done]).recover('run-m', { session: marie() });
    expect(recovered.status).toBe('completed');
    expect(recovered.unknownOutcomes).toEqual(['lookup']);
    expect(w.executions).toEqual([]);
    const [reply] = toolReplies(recovered.messages);
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['lookup', true],
      ['pay', true],
    ]);
    expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/not run.*confirmation/s);
    const kinds = (await store.readJournal({ runId: 'run-m' })).map(({ record }) =>
      'callId' in record ? `${record.kind} ${record.callId}` : record.kind,
    );
    // The transfer's entry (it awaited confirmation, nothing ran) is kept from the stopped worker, and the
    // recovery journals its own answer to it (refused: nobody was asked; a killed worker leaves no entry).
    expect(kinds).toEqual(['start lookup', 'call pay', 'recovery', 'outcome_unknown lookup', 'call pay']);
    const payEntries = (await store.readJournal({ runId: 'run-m' }))
      .map(({ record }) => record)
      .filter((record) => record.kind === 'call' && record.callId === 'pay');
    expect(payEntries.map((record) => ('verdict' in record ? [record.verdict, record.reason] : []))).toEqual([
      ['awaiting_confirmation', undefined],
      ['refused', 'confirmation_required'],
    ]);
  });
});

describe('catalogue fingerprint', () => {
  it('is the same for the same tools in any order, and names what changed', () => {
    const a = catalogueFingerprint(createCatalogue([lookupTool(), transferTool([])]));
    const b = catalogueFingerprint(createCatalogue([transferTool([]), lookupTool()]));
    expect(a).toEqual(b);
    const renamed = catalogueFingerprint(createCatalogue([lookupTool(), transferTool([], 'wire')]));
    expect(catalogueChanges(a, renamed)).toEqual(['removed "transfer"', 'added "wire"']);
    const reworded = catalogueFingerprint(
      createCatalogue([{ ...lookupTool(), description: 'Other words.' }, transferTool([])]),
    );
    expect(catalogueChanges(a, reworded)).toEqual([]);
    const wider = catalogueFingerprint(createCatalogue([lookupTool(), { ...transferTool([]), right: 'payments:any' }]));
    expect(catalogueChanges(a, wider)).toEqual(['changed "transfer"']);
  });
});

describe('secrets', () => {
  it('scrubs credential-shaped text and secret-named members, keeping what is not secret', () => {
    expect(scrubSecretText('Authorization: Bearer abcdefghijkl.mnop')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(scrubSecretText('key sk-proj-ABCDEFGHIJKLMNOPQRST1234 failed')).toBe(`key sk-${REDACTED} failed`);
    expect(scrubSecretText('postgres://app:s3cret@db:5432/app')).toBe(`postgres://app:${REDACTED}@db:5432/app`);
    expect(scrubSecretText('AKIAABCDEFGHIJKLMNOP')).toBe(REDACTED);
    expect(scrubSecretText('amount=10&password=hunter22')).toBe(`amount=10&password=${REDACTED}`);
    expect(scrubSecretText('case A-1234 is open')).toBe('case A-1234 is open');
    expect(scrubSecrets({ user: 'marie', apiKey: 'x-123', nested: [{ token: 'abc' }] })).toEqual({
      user: 'marie',
      apiKey: REDACTED,
      nested: [{ token: REDACTED }],
    });
  });

  it('redacts declared input fields of one tool, through objects and arrays, and drops its raw text', () => {
    const redact = redactInputFields({ pay: ['card.number', 'items.cvc'] });
    const record: JournalRecord = {
      kind: 'call',
      at: 't',
      runId: 'r',
      sessionId: 's',
      humanId: 'h',
      turn: 1,
      callId: 'c',
      toolName: 'pay',
      input: { card: { number: '4111111111111111', holder: 'M' }, items: [{ cvc: '123', sku: 'a' }] },
      rawInput: '{"card":{"number":"4111111111111111"}}',
      inputDigest: argumentDigest({}),
      verdict: 'executed',
      durationMs: 1,
    };
    expect(redact(record)).toMatchObject({
      input: { card: { number: REDACTED, holder: 'M' }, items: [{ cvc: REDACTED, sku: 'a' }] },
      rawInput: REDACTED,
    });
    expect(redact({ ...record, toolName: 'other' })).toEqual({ ...record, toolName: 'other' });
  });
});

describe('verifyJournal', () => {
  function rowsOf(records: readonly unknown[]) {
    let prevHash = GENESIS_HASH;
    return records.map((record, index) => {
      const hash = chainHash(prevHash, record);
      const row = { seq: index + 1, prevHash, hash, recordJson: JSON.stringify(record) };
      prevHash = hash;
      return row;
    });
  }
  function source(
    rows: ReturnType<typeof rowsOf>,
    head = { seq: rows.at(-1)?.seq ?? 0, hash: rows.at(-1)?.hash ?? GENESIS_HASH },
  ) {
    return {
      rows: async function* () {
        yield* rows;
      },
      head: async () => head,
      seqOfHash: async (hash: string) => rows.find((row) => row.hash === hash)?.seq,
    };
  }

  it('accepts an empty journal and a sound one', async () => {
    expect(await verifyJournal(source([]))).toEqual({
      ok: true,
      entries: 0,
      head: { seq: 0, hash: GENESIS_HASH },
      unkeyedEntries: 0,
    });
    expect(await verifyJournal(source(rowsOf([{ a: 1 }, { a: 2 }])))).toMatchObject({ ok: true, entries: 2 });
  });

  it('finds an emptied journal through its head, unparsable rows, and renumbered ones', async () => {
    const rows = rowsOf([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await verifyJournal(source([], { seq: 3, hash: rows[2]?.hash ?? '' }))).toMatchObject({
      ok: false,
      seq: 1,
      problem: 'deleted',
    });
    const garbled = rows.map((row) => (row.seq === 2 ? { ...row, recordJson: '{"a":' } : row));
    expect(await verifyJournal(source(garbled))).toMatchObject({ ok: false, seq: 2, problem: 'edited' });
    const shifted = rows.map((row) => ({ ...row, seq: row.seq + 10 }));
    expect(await verifyJournal(source(shifted, { seq: 13, hash: rows[2]?.hash ?? '' }))).toMatchObject({
      ok: false,
      seq: 11,
      problem: 'edited',
    });
    expect(await verifyJournal(source(rows, { seq: 2, hash: rows[1]?.hash ?? '' }))).toMatchObject({
      ok: false,
      seq: 3,
      problem: 'inserted',
    });
  });
});
