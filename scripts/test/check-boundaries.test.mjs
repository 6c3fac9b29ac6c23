// The boundary check is only worth `pnpm lint` if it fails: a synthetic workspace that breaks every rule
// once must be reported rule by rule (and its allowed imports not at all), and this repository not at all.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBoundaries } from '../check-boundaries.mjs';

const fixture = fileURLToPath(new URL('./fixtures/boundaries', import.meta.url));
const repository = fileURLToPath(new URL('../..', import.meta.url));

describe('checkBoundaries', () => {
  it('reports each forbidden import and the cycle of the synthetic workspace, and nothing else', () => {
    const found = checkBoundaries(fixture).map(({ rule, file, message }) => [rule, file, message]);
    expect(found).toEqual([
      ['adapter-imports', 'packages/acme/src/index.ts', expect.stringContaining("'lodash'")],
      ['no-deep-import', 'packages/acme/src/index.ts', expect.stringContaining("'@toolcircuit/schema/internal'")],
      [
        'no-relative-import-across-packages',
        'packages/acme/src/index.ts',
        expect.stringContaining("import '@toolcircuit/core'"),
      ],
      ['core-is-neutral', 'packages/core/src/a.ts', expect.stringContaining('no vendor SDK')],
      ['no-import-cycle', 'packages/core/src/a.ts', '@toolcircuit/core: src/a.ts -> src/b.ts -> src/a.ts'],
      ['core-is-neutral', 'packages/core/src/schema-user.ts', expect.stringContaining('no other @toolcircuit package')],
      ['no-import-of-app', 'packages/stores/package.json', expect.stringContaining('@toolcircuit/cli')],
      ['no-import-of-app', 'packages/stores/src/index.ts', expect.stringContaining('is an application')],
    ]);
  });

  it('finds this repository within its boundaries', () => {
    expect(checkBoundaries(repository)).toEqual([]);
  });
});
