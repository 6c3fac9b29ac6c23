import { type Agent, request as httpRequest } from 'node:http';
import { BENCH_TOKEN, epochNow } from './server-world.js';

interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads the answers field by field.
  readonly body: any;
}

/** One JSON request over node:http, on the given agent (its own keep-alive connections). */
function call(agent: Agent, port: number, path: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          authorization: `Bearer ${BENCH_TOKEN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * The two clients, each with its own keep-alive connections, kept across batches as browsers keep theirs:
 * the warm-up opens them, so the timed batches measure runs rather than TCP handshakes.
 */
export interface Clients {
  readonly starter: Agent;
  readonly decider: Agent;
}

export interface HttpBatch {
  readonly runIds: string[];
  readonly decidedAt: Map<string, number>;
  /** Runs whose start or decision was not answered as expected (paused, then completed). */
  readonly failed: Set<string>;
  readonly seconds: number;
}

/**
 * `runs` runs at once over HTTP: each started by the "page" client (one agent), and approved as soon as
 * its paused answer arrives by the "inbox" client (another agent, other connections), with the pending
 * call's digest from that answer, as a person's second tab would.
 */
export async function playOverHttp(
  clients: Clients,
  port: number,
  runs: number,
  label: string,
  decide: 'as-each-pauses' | 'one-at-a-time' = 'as-each-pauses',
): Promise<HttpBatch> {
  const { starter, decider } = clients;
  const runIds: string[] = [];
  const decidedAt = new Map<string, number>();
  const failed = new Set<string>();
  const approve = async (run: { id: string; pending: { callId: string; inputDigest: string }[] }) => {
    const [pending] = run.pending;
    decidedAt.set(run.id, epochNow());
    const decided = await call(decider, port, `/runs/${run.id}/decisions`, {
      decisions: [{ callId: pending?.callId, approved: true, inputDigest: pending?.inputDigest }],
    });
    if (decided.status !== 200 || decided.body?.run?.status !== 'completed') failed.add(run.id);
  };
  const paused: Parameters<typeof approve>[0][] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: runs }, async (_, index) => {
      const start = await call(starter, port, '/runs', { prompt: `${label} run ${index}` });
      const run = start.body?.run;
      if (start.status !== 201 || run?.status !== 'paused' || run.pending?.length !== 1) {
        failed.add(typeof run?.id === 'string' ? run.id : `${label} run ${index}`);
        return;
      }
      runIds.push(run.id);
      if (decide === 'as-each-pauses') await approve(run);
      else paused.push(run);
    }),
  );
  // Every run paused at once, then one human's decisions, each after the answer to the one before.
  for (const run of paused) await approve(run);
  const seconds = (performance.now() - started) / 1000;
  return { runIds, decidedAt, failed, seconds };
}
