// A TCP proxy between a store and its PostgreSQL server that fails the network the ways a real one does:
// stall (a partition: nothing gets through, connections stay open, what was sent arrives once it heals),
// cut every connection, or cut one connection right at its COMMIT, so that the server commits (or never
// sees the COMMIT) and the answer never arrives. Used by the fault tests and the fault campaign.
import { createServer, Socket } from 'node:net';

/** The simple-protocol message node-postgres sends for `COMMIT`: 'Q', int32 length 11, "COMMIT\0". */
const COMMIT_MESSAGE = Buffer.from([0x51, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);

/** @param {number} targetPort */
export async function startTcpProxy(targetPort) {
  /** @type {Set<{ client: Socket; server: Socket }>} */
  const pairs = new Set();
  let stalled = false;
  /** @type {{ when: 'after-commit' | 'before-commit'; done: () => void } | undefined} */
  let armed;
  const proxy = createServer((client) => {
    const server = new Socket();
    const pair = { client, server };
    pairs.add(pair);
    if (stalled) {
      client.pause();
      server.pause();
    }
    /** @type {(() => void) | undefined} */
    let cutOnAnswer;
    const drop = () => {
      client.destroy();
      server.destroy();
      pairs.delete(pair);
    };
    server.connect(targetPort, '127.0.0.1');
    client.on('data', (/** @type {Buffer} */ chunk) => {
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
    server.on('data', (/** @type {Buffer} */ chunk) => {
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
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = proxy.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const each = (/** @type {(socket: Socket) => void} */ act) => {
    for (const { client, server } of pairs) {
      act(client);
      act(server);
    }
  };
  return {
    port,
    stall: () => {
      stalled = true;
      each((socket) => socket.pause());
    },
    heal: () => {
      stalled = false;
      each((socket) => socket.resume());
    },
    cutAll: () => {
      each((socket) => socket.destroy());
      pairs.clear();
    },
    /** @param {'after-commit' | 'before-commit'} when */
    cutAtNextCommit: (when) =>
      new Promise((resolve) => {
        armed = { when, done: () => resolve(undefined) };
      }),
    close: async () => {
      each((socket) => socket.destroy());
      await new Promise((resolve) => proxy.close(() => resolve(undefined)));
    },
  };
}
