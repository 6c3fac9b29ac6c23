// Helpers of the tests that run a second process against the same store (a child on the built packages).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The child runs the built packages (dist), as a deployment would: build core and stores from the sources
 * with each package's own `build` script (one bundle per entry and the declarations), so what the child
 * loads is what is published.
 */
export function buildForChildren(): void {
  for (const pkg of ['core', 'stores']) {
    try {
      execFileSync('pnpm', ['run', '--silent', 'build'], { cwd: join(packages, pkg), stdio: 'pipe' });
    } catch (error) {
      const output = (error as { stdout?: Buffer }).stdout?.toString() ?? '';
      throw new Error(`building packages/${pkg} for the child process failed:\n${output}`, { cause: error });
    }
  }
}

/** The side effects a test's tools appended to `file`, one JSON line each (empty when none ran). */
export function effectsIn<T = { pid: number }>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Waits (up to a minute) for a child to write its `ready` file, and returns what it wrote there. */
async function waitForReady(child: ChildProcess, ready: string, stderr: () => string): Promise<string> {
  for (let attempt = 0; attempt < 3000; attempt += 1) {
    if (existsSync(ready)) return readFileSync(ready, 'utf8').trim();
    if (child.exitCode !== null) throw new Error(`the child exited (${child.exitCode}) early: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the child never reached its stopping point: ${stderr()}`);
}

/**
 * Starts `script` (a child worker on the built packages) with `config` as its JSON argument and waits for
 * it to reach its stopping point. Returns what it wrote to `config.ready`, its pid, and how to SIGKILL it
 * there (resolving with the signal it died of).
 */
export async function childAtReady<Config extends { readonly ready: string }>(
  script: string,
  config: Config,
): Promise<{ said: string; pid: number | undefined; kill: () => Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const said = await waitForReady(child, config.ready, () => stderr);
  return {
    said,
    pid: child.pid,
    kill: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}
