import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import type { ParsedArgs } from '../parsed-args.js';
import type { ServeTraceViewerOptions, TraceViewerServer } from './serve-trace-viewer.js';

/** The options `trace open` and `trace serve` share. */
export const SERVE_OPTIONS: Command['options'] = {
  port: { type: 'string', valueName: 'n', description: 'port to listen on (default: any free port)' },
  browser: { type: 'boolean', description: 'also open the address in the desktop browser' },
};

/** `--port` as a port number (0, the default, picks a free one). */
export function portOf(args: ParsedArgs): number {
  const text = args.string('port');
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--port must be a port number (0-65535), got "${text}".`);
  }
  return port;
}

/** The path, resolved, when it exists and is of the wanted kind; else a usage error naming it. */
export async function existing(path: string, cwd: string, kind: 'file' | 'folder'): Promise<string> {
  const full = resolve(cwd, path);
  const found = await stat(full).catch(() => undefined);
  if (found === undefined) throw new UsageError(`${path}: no such ${kind}.`);
  if (kind === 'file' ? !found.isFile() : !found.isDirectory()) throw new UsageError(`${path} is not a ${kind}.`);
  return full;
}

/**
 * Serves the viewer on 127.0.0.1, prints the address, and waits for Ctrl-C. A desktop browser is opened
 * only with `--browser` (a server, a container or CI has none).
 */
export async function serveUntilStopped(
  options: ServeTraceViewerOptions,
  args: ParsedArgs,
  io: CliIo,
): Promise<number> {
  // Loaded on use: the other commands start without the server.
  const { serveTraceViewer } = await import('./serve-trace-viewer.js');
  let server: TraceViewerServer;
  try {
    server = await serveTraceViewer(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${options.port} is in use.`, 'Choose another with --port, or 0 for any free port.');
    throw error;
  }
  const address = server.fileUrl ?? server.url;
  io.stdout.write(`trace viewer: ${address}\n(serving on 127.0.0.1 only; Ctrl-C to stop)\n`);
  if (args.flag('browser')) openBrowser(address, io);
  await new Promise<void>((stopped) => {
    if (io.signal.aborted) stopped();
    else io.signal.addEventListener('abort', () => stopped(), { once: true });
  });
  await server.close();
  return ExitCode.ok;
}

function openBrowser(address: string, io: CliIo): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [address], { stdio: 'ignore', detached: true });
  child.on('error', () => io.stderr.write(`could not start ${opener}; open ${address} yourself\n`));
  child.unref();
}
