import { spawn } from 'node:child_process';

export interface SpawnResult {
  readonly stdout: string;
  readonly wallMs: number;
}

/** Runs `node <args>` and resolves with its stdout; rejects with its stderr when it fails. */
export function spawnNode(args: readonly string[], cwd: string): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code === 0) resolve({ stdout, wallMs });
      else reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

/** Runs the tasks with at most `limit` in flight, keeping their order in the results. */
export async function inBatches<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < tasks.length; index = next++) {
      const task = tasks[index];
      if (task !== undefined) results[index] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}
