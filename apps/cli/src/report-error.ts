import type { CliIo } from './cli-io.js';
import { UsageError } from './errors/usage-error.js';
import { ExitCode } from './exit-codes.js';

interface KindedError extends Error {
  readonly kind: 'configuration' | 'provider' | 'circuit' | 'store';
}

// Duck-typed rather than `instanceof ToolcircuitError`: an application may load two copies of core.
function isKinded(error: unknown): error is KindedError {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

/**
 * Prints an error the way a user can act on it and returns the exit code. Configuration errors (bad config,
 * missing key, a catalogue that cannot be built) are the user's to fix: exit 2, as are store errors (a database
 * that cannot be reached, read or written: the message names the store and what to do). Provider errors: exit 4.
 * Anything else is a toolcircuit bug: exit 70, with the stack only when TOOLCIRCUIT_DEBUG is set.
 */
export function reportError(error: unknown, io: CliIo, commandName: string | undefined): number {
  const prefix = commandName === undefined ? 'toolcircuit' : `toolcircuit ${commandName}`;
  const debug = io.env['TOOLCIRCUIT_DEBUG'] !== undefined && io.env['TOOLCIRCUIT_DEBUG'] !== '';
  const stack = debug && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : '';
  if (error instanceof UsageError) {
    io.stderr.write(`${prefix}: ${error.message}\n${error.hint === undefined ? '' : `  ${error.hint}\n`}${stack}`);
    return ExitCode.usage;
  }
  if (isKinded(error)) {
    if (error.kind === 'configuration') {
      io.stderr.write(`${prefix}: ${error.message}${stack}\n`);
      return ExitCode.usage;
    }
    if (error.kind === 'store') {
      io.stderr.write(`${prefix}: store error: ${error.message}${stack}\n`);
      return ExitCode.usage;
    }
    if (error.kind === 'provider') {
      io.stderr.write(`${prefix}: provider error: ${error.message}${stack}\n`);
      return ExitCode.provider;
    }
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  io.stderr.write(
    `${prefix}: internal error: ${message}\n  This is a bug in toolcircuit; rerun with TOOLCIRCUIT_DEBUG=1 and report the output.${stack}\n`,
  );
  return ExitCode.internal;
}
