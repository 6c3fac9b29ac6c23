// One worker of the fault campaign (fault-campaign.mjs starts several): durable runs, as many at a time as
// asked, against the store it is given, on the BUILT packages, while the campaign breaks the database.
// Each run's model asks for two calls of a tool that logs when it starts and when it has its result, then
// answers. The worker logs every run it saw finish and every error the application saw, recovers its own
// failed runs (no force: they are its own), and on the drain signal stops starting runs and recovers what
// is left. Argument: JSON (see the campaign).
import { appendFileSync, existsSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createCatalogue, createSession, defineTool, everySession } from '@toolcircuit/core';
import { createDurableRunner } from '@toolcircuit/stores';
import { openPostgresStore } from '@toolcircuit/stores/postgres';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import { faultModel } from '../test/support/fault-model.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (record) =>
  appendFileSync(
    config.outcomes,
    `${JSON.stringify({ worker: config.worker, pid: process.pid, t: Date.now(), ...record })}\n`,
  );

/** What the application saw: typed (a toolcircuit error with a kind and a code), and its next step. */
function described(error) {
  const fields = error ?? {};
  return {
    name: fields.name,
    code: fields.code,
    kind: fields.kind,
    retryable: fields.retryable,
    driverCode: fields.driverCode ?? fields.cause?.driverCode,
    typed: typeof fields.kind === 'string' && typeof fields.code === 'string',
    namesStore: String(fields.message).includes('(store: '),
    message: String(fields.message ?? fields).slice(0, 400),
  };
}

// A crash is what the campaign counts: the process must never die of the database.
process.on('uncaughtException', (error) => {
  log({ type: 'crash', error: described(error) });
  process.exit(99);
});
process.on('unhandledRejection', (error) => {
  log({ type: 'crash', error: described(error) });
  process.exit(98);
});

// The event loop's longest stall in each second, so that the campaign can tell a lock wait that blocks the
// process from the ordinary stalls of a busy machine.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
setInterval(() => {
  log({ type: 'loop', maxMs: Math.round(loopDelay.max / 1e6) });
  loopDelay.reset();
}, 1000).unref();

const effect = defineTool({
  name: 'effect',
  description: 'Does something once; logs when it starts and when its result is known.',
  inputSchema: {
    type: 'object',
    properties: { key: { type: 'string' } },
    required: ['key'],
    additionalProperties: false,
  },
  right: everySession,
  run: async ({ key }) => {
    appendFileSync(config.effects, `${JSON.stringify({ key, phase: 'start', pid: process.pid, t: Date.now() })}\n`);
    await sleep(config.toolMs);
    appendFileSync(config.effects, `${JSON.stringify({ key, phase: 'end', pid: process.pid, t: Date.now() })}\n`);
    return `done ${key}`;
  },
});

const session = createSession({ id: 'campaign', humanId: 'operator', rights: [] });
const journal = { key: { id: 'campaign', secret: config.key } };

async function openStore() {
  for (;;) {
    try {
      return config.store === 'postgres'
        ? await openPostgresStore({
            connectionString: config.url,
            schema: config.schema,
            journal,
            timeouts: config.timeouts,
            writeRetryMs: config.writeRetryMs,
          })
        : await openSqliteStore({ file: config.file, journal, writeRetryMs: config.writeRetryMs });
    } catch (error) {
      log({ type: 'error', op: 'open', ...described(error) });
      await sleep(1000);
    }
  }
}

const store = await openStore();
const runner = createDurableRunner({
  store,
  catalogue: createCatalogue([effect]),
  model: faultModel('effect'),
  workerId: `campaign-${config.worker}-${process.pid}`,
});

const toRecover = new Map(); // runId → when to try next
const draining = () => existsSync(config.drain);

async function runOne(runId) {
  try {
    const result = await runner.start({ session, messages: [{ role: 'user', content: `run id: ${runId}` }], runId });
    log({ type: 'run', op: 'start', runId, status: result.status, unknown: result.unknownOutcomes });
  } catch (error) {
    log({ type: 'error', op: 'start', runId, ...described(error) });
    toRecover.set(runId, Date.now() + 500);
    // As an application would: a failed start is not followed at once by the next one.
    await sleep(1000);
  }
}

async function recoverDue() {
  for (const [runId, due] of toRecover) {
    if (due > Date.now()) continue;
    try {
      const record = await runner.get(runId);
      if (record === undefined) {
        // It was never created (its first write failed): nothing started, nothing to recover.
        toRecover.delete(runId);
        log({ type: 'never-created', runId });
        continue;
      }
      if (record.status !== 'resuming' && record.status !== 'interrupted') {
        toRecover.delete(runId);
        log({ type: 'settled', runId, status: record.status });
        continue;
      }
      const result = await runner.recover(runId, { session });
      toRecover.delete(runId);
      log({ type: 'run', op: 'recover', runId, status: result.status, unknown: result.unknownOutcomes });
    } catch (error) {
      log({ type: 'error', op: 'recover', runId, ...described(error) });
      toRecover.set(runId, Date.now() + 1000);
    }
  }
}

let seq = 0;
const inFlight = new Set();
while (!draining()) {
  while (inFlight.size < config.concurrency) {
    seq += 1;
    const running = runOne(`w${config.worker}-${seq}`).finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.race([...inFlight, sleep(250)]);
  await recoverDue();
}
await Promise.all(inFlight);
const deadline = Date.now() + config.drainMs;
while (toRecover.size > 0 && Date.now() < deadline) {
  await recoverDue();
  await sleep(250);
}
log({ type: 'done', started: seq, leftToRecover: [...toRecover.keys()] });
await store.close();
process.exit(0);
