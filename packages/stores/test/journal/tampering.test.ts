// Every kind of tampering of tampering-cases.ts, done to a real journal as someone with write access to the
// database would, on SQLite and PostgreSQL, checked through the API and through the built CLI, under each
// protection (and a keyed journal checked without its key): the verdicts are the README's table.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAnchorSink, type JournalVerification, type VerifyJournalOptions } from '../../src/index.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';
import {
  assertCliBuilt,
  type Dialect,
  keyOnDisk,
  postgresDialect,
  sqliteDialect,
  toolcircuit,
} from './journal-fixtures.js';
import { PROTECTIONS, type Protection, TAMPERING_CASES, tamperingTable, type Verdict } from './tampering-cases.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-tamper-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const k1 = keyOnDisk(root, 'k1');

beforeAll(() => assertCliBuilt());

function expectVerdict(result: JournalVerification, verdict: Verdict, context: string): void {
  if (verdict === 'intact') {
    expect(result, context).toMatchObject({ ok: true });
  } else {
    expect(result, context).toMatchObject({ ok: false, problem: verdict.problem, seq: verdict.seq });
    // It never vouches for the entry it names, or any after it (a run-table mismatch names the entry the
    // table contradicts, once the whole chain checked out).
    if (!result.ok && verdict.problem !== 'run_mismatch') expect(result.entries, context).toBeLessThan(verdict.seq);
  }
}

function describeTampering(dialect: () => Dialect) {
  for (const entry of TAMPERING_CASES) {
    it(entry.name, async () => {
      const d = dialect();
      const unkeyed = await d.journal({});
      const keyed = await d.journal({ key: k1.key });
      const anchorFile = join(root, `anchors-${d.name}-${TAMPERING_CASES.indexOf(entry)}.jsonl`);
      const anchor = await keyed.store.anchorJournal({ sink: fileAnchorSink(anchorFile) });
      expect(anchor).toMatchObject({ seq: 9, keyId: 'k1', mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
      await unkeyed.store.close();
      await keyed.store.close();
      try {
        await entry.tamper(unkeyed.under.raw);
        await entry.tamper(keyed.under.raw);
        const targets: Record<Protection, { under: typeof unkeyed.under; api: VerifyJournalOptions; cli: string[] }> = {
          unkeyed: { under: unkeyed.under, api: {}, cli: [] },
          keyed: { under: keyed.under, api: { keys: [k1.key] }, cli: ['--key', `k1=${k1.file}`] },
          'keyed + anchor': {
            under: keyed.under,
            api: { keys: [k1.key], anchor },
            cli: ['--key', `k1=${k1.file}`, '--anchor', anchorFile],
          },
          'keyed, checked without the key': { under: keyed.under, api: {}, cli: [] },
        };
        for (const protection of PROTECTIONS) {
          const { under, api, cli } = targets[protection];
          const verdict = entry.verdicts[protection];
          const journal = await under.open();
          let result: JournalVerification;
          try {
            result = await journal.verifyJournal(api);
          } finally {
            await journal.close();
          }
          expectVerdict(result, verdict, `${entry.name}, ${protection}, API`);
          const run = await toolcircuit(['journal', 'verify', ...under.cliArgs, ...cli, '--json'], root);
          expect({ protection, code: run.code, stderr: run.stderr }).toEqual({
            protection,
            code: verdict === 'intact' ? 0 : 1,
            stderr: '',
          });
          expect(JSON.parse(run.stdout)).toEqual(result);
        }
      } finally {
        await unkeyed.under.close();
        await keyed.under.close();
      }
    });
  }
}

describe('tampering with the journal, on SQLite', () => {
  const dialect = sqliteDialect(root);
  describeTampering(() => dialect);
});

const url = postgresTestUrl();
requirePostgresInCi(url);
describe.skipIf(url === undefined)(
  `tampering with the journal, on PostgreSQL${url === undefined ? ` (skipped: ${POSTGRES_MISSING})` : ''}`,
  () => {
    const dialect = postgresDialect(url as string);
    describeTampering(() => dialect);
  },
);

describe('the stores README', () => {
  it('shows the verdicts of these tests as its tampering table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(tamperingTable());
  });

  it('with a key and an anchor, every kind of tampering is detected', () => {
    for (const entry of TAMPERING_CASES) expect(entry.verdicts['keyed + anchor'], entry.name).not.toBe('intact');
  });
});
