import { randomUUID } from 'node:crypto';
import { createSession, type Session } from '@toolcircuit/core';
import type { CliIo } from '../cli-io.js';
import type { ParsedArgs } from '../parsed-args.js';

/**
 * The session of the operator running a command (`run`, `mcp serve`): `--right` / `--human` win over the
 * module's exported session, because the command line is the operator speaking, never the model.
 */
export function operatorSession(args: ParsedArgs, exported: Session | undefined, io: CliIo): Session {
  const rights = args.list('right');
  const human = args.string('human');
  if (rights.length === 0 && human === undefined && exported !== undefined) return exported;
  return createSession({
    id: `cli-${randomUUID()}`,
    humanId: human ?? exported?.humanId ?? io.env['USER'] ?? 'cli-user',
    rights: rights.length > 0 ? rights : (exported?.rights ?? []),
  });
}
