import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// A plain ES module script (no declarations).
import { codeBlocks } from '../../docs/check-code-blocks.mjs';

// The documentation site's sources: the guides, their TypeScript blocks (type-checked against the built
// packages, and run when marked), and the READMEs that point to them. The site itself (TypeDoc) is built by
// `pnpm docs:build` in CI (.ci/run).
const root = fileURLToPath(new URL('../..', import.meta.url));
const GUIDES = [
  'tools-and-checks',
  'confirmations-and-provenance',
  'providers-and-config',
  'streaming',
  'long-runs-and-context',
  'structured-output',
  'stores-and-durable-runs',
  'mcp',
  'testing-with-cassettes',
  'security',
];
const typedBlocks = codeBlocks as (text: string) => { kind: string; line: number; code: string }[];

describe('the documentation', () => {
  it('has the ten guides, each linked from the site index and from the core README', () => {
    expect(
      readdirSync(join(root, 'docs/guides'))
        .map((name) => name.replace(/\.md$/, ''))
        .sort(),
    ).toEqual([...GUIDES].sort());
    const index = readFileSync(join(root, 'docs/index.md'), 'utf8');
    const core = readFileSync(join(root, 'packages/core/README.md'), 'utf8');
    for (const guide of GUIDES) {
      expect(index, guide).toContain(`](guides/${guide}.md)`);
      expect(core, guide).toContain(`](../../docs/guides/${guide}.md)`);
    }
  });

  it('the core README is an overview that links to the guides', () => {
    const lines = readFileSync(join(root, 'packages/core/README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(150);
  });

  it('reads ```ts, ```ts run and ```ts fragment blocks with the line they start on', () => {
    const text = [
      '# t',
      '```ts',
      'const a = 1;',
      '```',
      '',
      '```ts run',
      'b();',
      '```',
      '```ts fragment',
      'x',
      '```',
    ].join('\n');
    expect(typedBlocks(text)).toEqual([
      { kind: 'check', line: 3, code: 'const a = 1;' },
      { kind: 'run', line: 7, code: 'b();' },
      { kind: 'fragment', line: 10, code: 'x' },
    ]);
  });

  it('every TypeScript block type-checks against the packages, and the runnable ones run', () => {
    let output = '';
    try {
      output = execFileSync(process.execPath, ['docs/check-code-blocks.mjs'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      expect.fail(`${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    }
    const [, checked = '0', run = '0', fragments = '0'] =
      /(\d+) TypeScript block\(s\) type-checked, (\d+) run, (\d+) fragment/.exec(output) ?? [];
    expect(Number(checked)).toBeGreaterThanOrEqual(10);
    expect(Number(run)).toBeGreaterThanOrEqual(3);
    // Sketches are the exception: most blocks are checked.
    expect(Number(fragments)).toBeLessThan(Number(checked) / 2);
  }, 120_000);
});
