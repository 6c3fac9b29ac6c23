/** A stream the CLI writes to: `process.stdout` / `process.stderr`, or a buffer in tests. */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Everything a command touches outside itself, so a command never reaches for `process` directly. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on Ctrl-C / SIGTERM: long-running commands stop cleanly instead of being killed mid-write. */
  readonly signal: AbortSignal;
}
