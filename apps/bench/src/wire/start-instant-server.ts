import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./instant-server.js', import.meta.url));

export interface InstantServer {
  readonly url: string;
  /** Body sizes (bytes) of the requests since the last call. */
  takeSizes(): Promise<number[]>;
  close(): Promise<void>;
}

/** Starts the instant server in its own `node` process and waits until it listens. */
export async function startInstantServer(toolName: string, calls: number): Promise<InstantServer> {
  const child = spawn(process.execPath, [SERVER, toolName, String(calls)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`instant server exited with ${code} before listening`)));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n')[0];
      if (line !== undefined && buffer.includes('\n')) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return {
    url,
    async takeSizes() {
      const response = await fetch(`${url}/stats`);
      return ((await response.json()) as { sizes: number[] }).sizes;
    },
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
