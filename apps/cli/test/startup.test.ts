import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from './support/cli-process.js';

// `toolcircuit --help` must start about as fast as Node: it may not import any command, an SDK, a store
// driver or ajv. Checked by the modules the built binary loads, not by timing (BENCHMARKS.md has the timing).
const HOOK = fileURLToPath(new URL('./support/record-loads.mjs', import.meta.url));

function loadedBy(args: readonly string[]): string[] {
  assertBuilt();
  const log = join(mkdtempSync(join(tmpdir(), 'toolcircuit-loads-')), 'loads.txt');
  const result = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', TOOLCIRCUIT_LOAD_LOG: log },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBeLessThanOrEqual(2);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/record-loads.mjs'));
}

// Workspace packages resolve to packages/*/dist through their links; installed ones sit under node_modules.
const HEAVY = [
  /\/dist\/commands\/(?!registry\.js)/,
  /@toolcircuit\//,
  /\/packages\/[^/]+\/dist\//,
  /node_modules\//,
  /\/ajv\//,
];

describe('CLI start-up', () => {
  it.each([['--help'], ['--version'], [[]], ['no-such-command']])(
    '%s loads no command module and no dependency',
    (arg) => {
      const loaded = loadedBy(Array.isArray(arg) ? arg : [arg]);
      expect(loaded.some((url) => url.endsWith('/dist/bin.js'))).toBe(true);
      expect(loaded.filter((url) => HEAVY.some((pattern) => pattern.test(url)))).toEqual([]);
    },
  );

  it('a command loads its own module (the check above would see it)', () => {
    const loaded = loadedBy(['replay', '--help']);
    expect(loaded.some((url) => url.endsWith('/dist/commands/replay-command.js'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/dist/commands/demo-command.js'))).toBe(false);
  });
});
