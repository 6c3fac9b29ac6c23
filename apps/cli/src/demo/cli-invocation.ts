import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How the reader should type the command in the hints the CLI prints: `pnpm exec toolcircuit` when this
 * binary is the one built inside a clone of the repository (where a bare `toolcircuit` is not on PATH),
 * `toolcircuit` for an installed CLI. A clone is recognised by the workspace file two levels above the
 * package (`<clone>/apps/cli`), never inside node_modules.
 */
export function cliInvocation(packageDir = fileURLToPath(new URL('../..', import.meta.url))): string {
  const root = dirname(dirname(packageDir));
  const inClone =
    basename(dirname(packageDir)) === 'apps' &&
    !packageDir.split(/[\\/]/).includes('node_modules') &&
    existsSync(join(root, 'pnpm-workspace.yaml'));
  return inClone ? 'pnpm exec toolcircuit' : 'toolcircuit';
}
