// A PostgreSQL server of a test's own, on its own port and data folder, that the test may kill and start
// again (as scripts/postgres.sh starts the shared one): the fault tests cannot do that to the shared server.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  readonly url: string;
  readonly port: number;
  /** Stops the server at once, as a crash does (`pg_ctl stop -m immediate`: no checkpoint, recovery at start). */
  crash(): void;
  /** SIGKILLs the postmaster and every backend, then waits until they are gone. */
  kill(): void;
  start(): void;
  /** Runs SQL as the superuser through psql; returns its output. */
  psql(sql: string): string;
  destroy(): void;
}

/** The newest installed server's bin folder, if any. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

export async function freePort(): Promise<number> {
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

/** Runs a server program; as root through `su postgres` (the server refuses to run as root). */
function run(bin: string, program: string, args: readonly string[]): string {
  const command = [join(bin, program), ...args];
  if (process.getuid?.() !== 0) return execFileSync(command[0] as string, command.slice(1), { encoding: 'utf8' });
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { encoding: 'utf8' });
}

export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', 'postgres']);
    }
  }
  const data = mkdtempSync(join(tmpdir(), 'toolcircuit-pg-faults-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(data, uid, gid);
  }
  const port = await freePort();
  run(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${data} -c fsync=off -c max_connections=60`;
  const start = () => {
    run(bin, 'pg_ctl', ['-D', data, '-l', join(data, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
  };
  const psql = (sql: string) =>
    run(bin, 'psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-Atc', sql]);
  start();
  const pids = (): number[] => {
    const file = join(data, 'postmaster.pid');
    if (!existsSync(file)) return [];
    const postmaster = Number(readFileSync(file, 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [postmaster, ...children];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: () => {
      run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    kill: () => {
      const all = pids();
      for (const pid of all) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      for (let tries = 0; tries < 500 && all.some(alive); tries += 1) execFileSync('sleep', ['0.02']);
      rmSync(join(data, 'postmaster.pid'), { force: true });
    },
    start,
    psql,
    destroy: () => {
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // not running
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
