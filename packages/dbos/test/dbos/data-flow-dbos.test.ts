// The data-flow options in a real DBOS worker: the invoice is quarantined, the IBAN must be trusted data,
// the run waits in PostgreSQL for the human, who vouches for the IBAN in the approval DBOS carries to the
// segment that resumes it.
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { createCatalogue, defineTool, everySession, type Model, type ModelRequest } from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDbosRuns, type DbosRuns, registerDbosCircuit } from '../../src/index.js';
import { freshDatabase, POSTGRES_MISSING, serverUrl } from '../support/postgres.js';

const server = serverUrl();
const IBAN = 'FR7630006000011234567890189';
const SESSION = { id: 's-df', humanId: 'alice', rights: [] };
const paid: unknown[] = [];
let readerCalls = 0;

const model: Model = {
  provider: 'scripted',
  modelId: 'pays-the-invoice',
  async generate(request: ModelRequest) {
    const calls = request.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
    if (JSON.stringify(request.messages).includes(IBAN)) throw new Error('the model was sent the invoice');
    if (calls.length === 0) return toolCallsTurn([{ id: 'read', name: 'read_invoice', input: {} }]);
    if (calls.length === 1) {
      return toolCallsTurn([
        {
          id: 'x',
          name: 'extract',
          input: { handle: '$doc1', fields: { type: 'object', properties: { iban: { type: 'string' } } } },
        },
      ]);
    }
    if (calls.length === 2) return toolCallsTurn([{ id: 'pay', name: 'send_money', input: { iban: '$doc1.iban' } }]);
    return textTurn('paid');
  },
};

const reader: Model = {
  provider: 'reader',
  modelId: 'reader',
  async generate() {
    readerCalls += 1;
    return textTurn(JSON.stringify({ iban: IBAN }));
  },
};

const catalogue = createCatalogue([
  defineTool({
    name: 'read_invoice',
    description: 'Reads an invoice.',
    inputSchema: { type: 'object' },
    right: everySession,
    run: () => ({ iban: IBAN }),
  }),
  defineTool({
    name: 'send_money',
    description: 'Sends money.',
    inputSchema: { type: 'object' },
    right: everySession,
    irreversible: true,
    trustedOnly: ['/iban'],
    run: (input) => {
      paid.push(input);
      return 'sent';
    },
  }),
]);

describe.skipIf(server === undefined)(
  `data-flow options in a DBOS worker (${server === undefined ? POSTGRES_MISSING : 'PostgreSQL'})`,
  () => {
    let database: { url: string; drop: () => Promise<void> };
    let client: DBOSClient;
    let runs: DbosRuns;

    beforeAll(async () => {
      database = await freshDatabase(server as string, 'toolcircuit_dbos_df');
      const circuit = registerDbosCircuit({
        model,
        catalogue,
        dataFlow: { quarantine: { tools: ['read_invoice'], reader } },
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
      expect(paid).toEqual([{ iban: IBAN }]);
      expect(readerCalls).toBe(1);
    }, 120_000);
  },
);
