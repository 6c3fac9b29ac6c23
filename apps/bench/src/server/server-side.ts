import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunServer, toNodeListener } from '@toolcircuit/server';
import { createDurableRunner, type DurableStore } from '@toolcircuit/stores';
import { durableModel, durableSession, FINAL_TEXT, userMessages } from '../durable/durable-world.js';
import type { BatchReport } from './server-protocol.js';
import { BENCH_TOKEN, epochNow, ledgerCatalogue, type ToolLedger } from './server-world.js';

/** The server side of the phase over one store: the run server on 127.0.0.1, and the runner alone beside it. */
export interface ServerSide {
  readonly port: number;
  /** Starts counting this process's CPU time for a batch played over HTTP by another client. */
  beginHttpBatch(): void;
  /** The batch's report: the CPU since `beginHttpBatch`, and what the store and the tool say of its runs. */
  endHttpBatch(runIds: readonly string[]): Promise<BatchReport>;
  /** The peer: the same runs through the durable runner directly, all at once, each approved once it pauses. */
  playDirect(runIds: readonly string[]): Promise<BatchReport>;
  close(): Promise<void>;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

export async function startServerSide(store: DurableStore): Promise<ServerSide> {
  const ledger: ToolLedger = { executions: new Map(), startedAt: new Map() };
  const session = durableSession();
  // One call a run, then the answer: the same stateless scripted model for the server and the peer.
  const shared = { store, model: durableModel({ calls: 1, turns: 1 }), catalogue: ledgerCatalogue(ledger) };
  const runServer = createRunServer({
    ...shared,
    authenticate: (request) => (request.headers.get('authorization') === `Bearer ${BENCH_TOKEN}` ? session : undefined),
  });
  const runner = createDurableRunner(shared);
  // Connections stay open between batches (the peer's batch runs in between), as a browser's stay open.
  const http = createServer({ keepAlive: true, keepAliveTimeout: 120_000 }, toNodeListener(runServer));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));

  async function report(runIds: readonly string[], cpu: number, decidedAt?: Map<string, number>) {
    const lost: string[] = [];
    let twice = 0;
    const latencies: number[] = [];
    for (const runId of runIds) {
      const record = await store.getRun(runId);
      if (record?.status !== 'completed' || record.result?.text !== FINAL_TEXT) lost.push(runId);
      if ((ledger.executions.get(runId) ?? 0) > 1) twice += 1;
      const decided = decidedAt?.get(runId);
      const started = ledger.startedAt.get(runId);
      if (decided !== undefined && started !== undefined) latencies.push(started - decided);
    }
    const batch: BatchReport = {
      cpuMs: cpu,
      lost,
      twice,
      toolStartedAt: Object.fromEntries(runIds.map((runId) => [runId, ledger.startedAt.get(runId) ?? Number.NaN])),
      latenciesMs: latencies,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    return batch;
  }

  let httpSince = process.cpuUsage();
  return {
    port: (http.address() as AddressInfo).port,
    beginHttpBatch: () => {
      httpSince = process.cpuUsage();
    },
    endHttpBatch: (runIds) => report(runIds, cpuMs(httpSince)),
    playDirect: async (runIds) => {
      const decidedAt = new Map<string, number>();
      const since = process.cpuUsage();
      await Promise.all(
        runIds.map(async (runId) => {
          const paused = await runner.start({ session, messages: userMessages, runId });
          const decisions = (paused.paused?.pending ?? []).map((call) => ({
            callId: call.callId,
            approved: true,
            inputDigest: call.inputDigest,
          }));
          decidedAt.set(runId, epochNow());
          await runner.resume(runId, decisions, { session });
        }),
      );
      const cpu = cpuMs(since);
      return report(runIds, cpu, decidedAt);
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
