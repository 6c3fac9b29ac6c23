import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests import workspace packages by name; point those names at their sources so a test run never
// depends on a stale dist. Tests that pin the published boundary spawn or import the built dist on purpose.
const root = fileURLToPath(new URL('.', import.meta.url));
const alias = readdirSync(`${root}packages`).flatMap((dir) => [
  { find: new RegExp(`^@toolcircuit/${dir}$`), replacement: `${root}packages/${dir}/src/index.ts` },
  // Core's `./provider` entry (what the adapters import) re-exports core's own objects: its sources too, or
  // a test would hold two copies of core's error classes.
  ...(dir === 'core'
    ? [{ find: /^@toolcircuit\/core\/provider$/, replacement: `${root}packages/core/src/provider.ts` }]
    : []),
]);

export default defineConfig({
  resolve: { alias },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'scripts/test/**/*.test.mjs',
      'scripts/test/**/*.test.ts',
      'examples/*.test.ts',
    ],
    // Fails a test that makes an SDK print a deprecation warning or ajv skip an unknown format.
    setupFiles: ['scripts/test/noise-guard.ts'],
    // Two cores: keep the pool small so property tests and replay servers do not starve each other.
    maxWorkers: 2,
    testTimeout: 30_000,
  },
});
