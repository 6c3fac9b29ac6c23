/**
 * The server side of the server phase, in a process of its own (forked by `measureServer`): one store,
 * the run server on 127.0.0.1 over it (node:http + `toNodeListener`), and the durable runner alone over
 * the same store, model and tool, the peer (see `startServerSide`). The parent drives both over IPC and the
 * server over HTTP; this process measures its own CPU time around each batch, so the server's figure and
 * the peer's are taken in the same process, on the same store.
 *
 *   BENCH_SERVER_STORE = sqlite:<folder> | postgres:<url> | memory (to profile the server's own work)
 *   BENCH_SERVER_SCHEMA = the PostgreSQL schema (dropped by the parent)
 */
import { createMemoryStore, type DurableStore } from '@toolcircuit/stores';
import { openPostgresStore } from '@toolcircuit/stores/postgres';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import type { ChildReply, ChildRequest } from './server-protocol.js';
import { startServerSide } from './server-side.js';

const spec = process.env.BENCH_SERVER_STORE ?? '';
async function openStore(): Promise<DurableStore> {
  if (spec.startsWith('postgres:')) {
    const schema = process.env.BENCH_SERVER_SCHEMA ?? 'bench_server';
    return openPostgresStore({ connectionString: spec.slice('postgres:'.length), schema });
  }
  // The memory store is for profiling the server's own work (no commits to wait for); no goal reads it.
  if (spec === 'memory') return createMemoryStore();
  return openSqliteStore({ dataDir: spec.slice('sqlite:'.length) });
}
const store = await openStore();
const side = await startServerSide(store);

async function answer(message: ChildRequest): Promise<ChildReply> {
  switch (message.type) {
    case 'http-begin':
      side.beginHttpBatch();
      return { type: 'ok' };
    case 'http-end':
      return { type: 'batch', report: await side.endHttpBatch(message.runIds) };
    case 'direct':
      return { type: 'batch', report: await side.playDirect(message.runIds) };
    case 'close':
      await side.close();
      await store.close();
      return { type: 'closed' };
  }
}

process.on('message', (message: ChildRequest) => {
  answer(message).then(
    (reply) => {
      process.send?.(reply);
      if (reply.type === 'closed') process.disconnect();
    },
    (error: unknown) => process.send?.({ type: 'error', message: String((error as Error)?.stack ?? error) }),
  );
});
process.send?.({ type: 'ready', port: side.port });
