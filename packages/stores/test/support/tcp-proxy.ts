// A TCP proxy between a store and its PostgreSQL server that can fail the network the ways a real one does:
// go silent (a partition: bytes stop, connections stay open), cut every connection, or cut one connection
// right at its COMMIT, so that the server commits (or never sees the COMMIT) and the answer never arrives.
import { createServer, type Server, Socket } from 'node:net';

/** The simple-protocol message node-postgres sends for `COMMIT`: 'Q', int32 length 11, "COMMIT\0". */
const COMMIT_MESSAGE = Buffer.from([0x51, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);

export interface TcpProxy {
  readonly port: number;
  /** Stop forwarding in both directions; connections (and new ones) stay open, silent. */
  silence(): void;
  /** Forward again (what was held back while silent is dropped, as a partition loses it). */
  heal(): void;
  /** Destroy every connection now. */
  cutAll(): void;
  /**
   * The next COMMIT: `after-commit` forwards it and cuts the connection when the server answers (it did
   * commit; the client never learns it); `before-commit` cuts it without forwarding (the server rolls back).
   */
  cutAtNextCommit(when: 'after-commit' | 'before-commit'): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; server: Socket }>();
  let silent = false;
  let armed: { when: 'after-commit' | 'before-commit'; done: () => void } | undefined;
  const proxy: Server = createServer((client) => {
    const server = new Socket();
    const pair = { client, server };
    pairs.add(pair);
    let cutOnAnswer: (() => void) | undefined;
    const drop = () => {
      client.destroy();
      server.destroy();
      pairs.delete(pair);
    };
    server.connect(targetPort, '127.0.0.1');
    client.on('data', (chunk: Buffer) => {
      if (silent) return;
      if (armed !== undefined && chunk.includes(COMMIT_MESSAGE)) {
        const { when, done } = armed;
        armed = undefined;
        if (when === 'before-commit') {
          drop();
          done();
          return;
        }
        cutOnAnswer = () => {
          drop();
          done();
        };
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (silent) return;
      if (cutOnAnswer !== undefined) {
        cutOnAnswer();
        return;
      }
      client.write(chunk);
    });
    client.on('error', drop);
    server.on('error', drop);
    client.on('close', drop);
    server.on('close', drop);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    silence: () => {
      silent = true;
    },
    heal: () => {
      silent = false;
    },
    cutAll: () => {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      pairs.clear();
    },
    cutAtNextCommit: (when) =>
      new Promise<void>((resolve) => {
        armed = { when, done: resolve };
      }),
    close: async () => {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
