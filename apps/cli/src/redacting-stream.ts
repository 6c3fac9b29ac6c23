import { redactSecrets } from '@toolcircuit/config';
import type { OutputStream } from './cli-io.js';

// Names of environment variables whose values are secrets. Matching by name (not by a list of known
// providers) also covers a key the user named in `apiKeyEnv`.
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;

/** The values of secret-looking variables (8+ characters, so short words are never mass-replaced). */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (SECRET_NAME.test(name) && value !== undefined && value.trim().length >= 8) secrets.push(value.trim());
  }
  // Longest first: a key that contains another must be replaced whole.
  return secrets.sort((a, b) => b.length - a.length);
}

/**
 * Wraps an output stream so no key value from the environment can reach it, whatever echoes it (a
 * provider error quoting a header, a tool result, a stack trace).
 */
export function redactingStream(stream: OutputStream, secrets: readonly string[]): OutputStream {
  if (secrets.length === 0) return stream;
  return {
    write: (text: string) => stream.write(redactSecrets(text, secrets)),
    ...(stream.isTTY === undefined ? {} : { isTTY: stream.isTTY }),
    ...(stream.columns === undefined ? {} : { columns: stream.columns }),
  };
}
