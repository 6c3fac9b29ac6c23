// The data-flow options in a real DBOS worker: the invoice is quarantined, the IBAN must be trusted data,
// the run waits in PostgreSQL for the human, who vouches for the IBAN in the approval DBOS carries to the
// segment that resumes it.
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDbosRuns, type DbosRuns, registerDbosCircuit } from '../../src/index.js';
import { IBAN, invoiceCircuit } from '../support/invoice-circuit.js';
import { freshDatabase, POSTGRES_MISSING, serverUrl } from '../support/postgres.js';

const server = serverUrl();
const SESSION = { id: 's-df', humanId: 'alice', rights: [] };
const { definition, counts } = invoiceCircuit();

describe.skipIf(server === undefined)(
  `data-flow options in a DBOS worker (${server === undefined ? POSTGRES_MISSING : 'PostgreSQL'})`,
  () => {
    let database: { url: string; drop: () => Promise<void> };
    let client: DBOSClient;
    let runs: DbosRuns;

    beforeAll(async () => {
      database = await freshDatabase(server as string, 'toolcircuit_dbos_df');
      const circuit = registerDbosCircuit({
        ...definition,
        queue: { name: 'data-flow-runs', pollingIntervalMs: 100 },
      });
      DBOS.setConfig({ name: 'data-flow-agent', systemDatabaseUrl: database.url, logLevel: 'error' });
      await DBOS.launch();
      await circuit.registerQueue();
      client = await DBOSClient.create({ systemDatabaseUrl: database.url });
      runs = createDbosRuns({ client, queueName: 'data-flow-runs' });
    }, 120_000);

    afterAll(async () => {
      await client?.destroy();
      await DBOS.shutdown();
      await database?.drop();
    }, 60_000);

    it('waits for the human to vouch for the IBAN, then pays once with the value from the document', async () => {
      const runId = await runs.start({
        runId: 'df-1',
        session: SESSION,
        messages: [{ role: 'user', content: 'Pay the invoice.' }],
      });
      const paused = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(paused.status).toBe('paused');
      const pending = paused.pending?.[0];
      expect(pending?.dataFlow).toMatchObject({ refusedBy: 'trusted-only', vouchFor: ['/iban'] });
      await runs.approve(
        runId,
        [
          {
            callId: pending?.callId as string,
            approved: true,
            inputDigest: pending?.inputDigest as string,
            vouched: [{ path: '/iban', value: IBAN }],
          },
        ],
        SESSION,
      );
      const done = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(done.status).toBe('completed');
      expect(counts.paid).toEqual([{ iban: IBAN }]);
      expect(counts.modelSawInvoice).toBe(false);
      expect(counts.reader).toBe(1);
    }, 120_000);
  },
);
