// A PostgreSQL server of a test's own, on its own port and data folder, that the test may kill and start
// again (as scripts/postgres.sh starts the shared one): the fault tests and the fault campaign cannot do
// that to the shared server. As root the server programs run as the `postgres` user (they refuse root).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The newest installed server's bin folder, if any. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** A server program's command line; as root through `su postgres`. @param {string[]} command */
function commandOf(command) {
  if (!asRoot) return command;
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  return ['su', 'postgres', '-s', '/bin/sh', '-c', quoted];
}

/** Runs a server program without blocking the event loop (a proxy may be forwarding meanwhile). */
function run(/** @type {string} */ bin, /** @type {string} */ program, /** @type {string[]} */ args) {
  const [file, ...rest] = commandOf([join(bin, program), ...args]);
  return new Promise((resolve, reject) => {
    execFile(/** @type {string} */ (file), rest, { encoding: 'utf8' }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`${program} failed: ${stderr || error.message}`)),
    );
  });
}

/**
 * @param {string} bin
 * @param {{ fsync?: boolean }} [options] fsync is off unless asked for (the tests need no durability
 *   across a machine crash; a killed server loses nothing the OS has)
 */
export async function startThrowawayPostgres(bin, options = {}) {
  if (asRoot) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', 'postgres']);
    }
  }
  const data = mkdtempSync(join(tmpdir(), 'toolcircuit-pg-faults-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(data, uid, gid);
  }
  const port = await freePort();
  await run(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const settings =
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${data} -c max_connections=100 ` +
    `-c fsync=${options.fsync === true ? 'on' : 'off'}`;
  const start = () =>
    run(bin, 'pg_ctl', ['-D', data, '-l', join(data, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  await start();
  /** The postmaster and its children. */
  const pids = () => {
    const file = join(data, 'postmaster.pid');
    if (!existsSync(file)) return [];
    const postmaster = Number(readFileSync(file, 'utf8').split('\n')[0]);
    let children = '';
    try {
      children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' });
    } catch {
      // no children
    }
    return [
      postmaster,
      ...children
        .split('\n')
        .map((line) => Number(line.trim()))
        .filter((pid) => pid > 0),
    ];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    /** Stops the server at once, as a crash does (no checkpoint; recovery at the next start). */
    crash: () => run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    /** SIGKILLs the postmaster and every backend, and waits until they are gone. */
    kill: async () => {
      const all = pids();
      for (const pid of all) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      for (let tries = 0; tries < 500 && all.some(alive); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      rmSync(join(data, 'postmaster.pid'), { force: true });
    },
    start,
    /** The end of the server's log. */
    log: () => {
      const file = join(data, 'server.log');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-60).join('\n') : '';
    },
    destroy: async () => {
      await run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(data, { recursive: true, force: true });
    },
  };
}

function alive(/** @type {number} */ pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
