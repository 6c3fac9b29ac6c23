import type { CliIo } from '../cli-io.js';
import { UsageError } from '../errors/usage-error.js';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables `--pass-env NAME` hands on to a stdio server, read from this process's environment by name
 * (a secret never appears on the command line, where other users of the machine can read it). A name that
 * is not set is an error: a server started without the key it needs fails in ways that do not say why.
 */
export function passEnvOf(names: readonly string[], io: CliIo): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    if (!VARIABLE.test(name)) {
      throw new UsageError(`--pass-env takes a variable name, got "${name}".`, 'e.g. --pass-env GITHUB_TOKEN');
    }
    const value = io.env[name];
    if (value === undefined) throw new UsageError(`--pass-env ${name}: ${name} is not set.`);
    env[name] = value;
  }
  return env;
}
