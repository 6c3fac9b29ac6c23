import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The BUILT binary: these tests pin what `toolcircuit` users get, not the sources. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
export const CLI_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(BIN)) {
    throw new Error(
      `apps/cli is not built (${BIN} is missing). Run: pnpm build (or npx turbo run build --filter=@toolcircuit/cli...)`,
    );
  }
}

export interface BinOptions {
  /** Added to a minimal environment (PATH only): the parent's keys never leak into a test. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Written to stdin, which is then closed. Without it stdin is closed at once (not a terminal). */
  readonly input?: string;
}

export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `toolcircuit`, for commands that serve (replay, record) while the test talks to them. */
export interface BinProcess {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line matching `pattern` (its match), or rejects when the process ends first. */
  line(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly done: Promise<BinResult>;
}

function environment(env: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env };
}

/** Starts the binary; spawn is asynchronous so replay servers in this process keep serving meanwhile. */
export function startBin(args: readonly string[], options: BinOptions = {}): BinProcess {
  assertBuilt();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? CLI_ROOT,
    env: environment(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void; reject: (error: Error) => void }[] =
    [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const watcher of [...watchers]) {
      const match = stdout.match(watcher.pattern);
      if (match !== null) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve(match);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  const done = new Promise<BinResult>((resolve) => {
    child.on('close', (code) => {
      for (const watcher of watchers.splice(0)) {
        watcher.reject(
          new Error(`process ended (code ${code}) before printing ${watcher.pattern}:\n${stdout}\n${stderr}`),
        );
      }
      resolve({ code, stdout, stderr });
    });
  });
  return {
    child,
    done,
    line(pattern) {
      const match = stdout.match(pattern);
      if (match !== null) return Promise.resolve(match);
      return new Promise((resolve, reject) => watchers.push({ pattern, resolve, reject }));
    },
  };
}

/** Runs the binary to completion. */
export function runBin(args: readonly string[], options: BinOptions = {}): Promise<BinResult> {
  return startBin(args, options).done;
}

/**
 * Runs the binary on a pseudo-terminal through util-linux `script`, so stdin IS a TTY: the only honest
 * way to exercise "ask on the terminal". `answers` are typed after `delayMs`.
 */
export function runBinOnTerminal(
  args: readonly string[],
  answers: string,
  options: BinOptions = {},
): Promise<BinResult> {
  assertBuilt();
  const quoted = [process.execPath, BIN, ...args].map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], {
    cwd: options.cwd ?? CLI_ROOT,
    env: environment(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // Answer only once the question is on screen, as a person would.
    if (!answered && stdout.includes('[y/N]')) {
      answered = true;
      child.stdin.write(answers);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
