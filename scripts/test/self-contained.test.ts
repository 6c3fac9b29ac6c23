import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A public clone has nothing beside it: every test and tool reads data from inside the repository.
const root = fileURLToPath(new URL('../..', import.meta.url));
const READS_OUTSIDE = /\.\.\/shared\b|['"`]shared\/|\/work\/shared/;
// The one script allowed to look outside: it refreshes fixtures/ from the upstream folder.
const ALLOWED = new Set(['scripts/refresh-fixtures.sh']);
const SKIP = new Set(['node_modules', 'dist', '.turbo', '.toolcircuit']);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|cts|js|mjs|cjs|sh|json)$/.test(entry.name)) yield path;
  }
}

describe('the repository is self-contained', () => {
  it('no test, tool or script reads a folder beside the repository', () => {
    const offenders: string[] = [];
    for (const top of ['packages', 'apps', 'scripts', '.ci']) {
      for (const file of sourceFiles(join(root, top))) {
        const name = relative(root, file);
        if (ALLOWED.has(name) || name === 'scripts/test/self-contained.test.ts') continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            if (READS_OUTSIDE.test(line)) offenders.push(`${name}:${index + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the copied data carries its provenance and licences', () => {
    for (const file of [
      'fixtures/README.md',
      'fixtures/LICENSE-MIT.txt',
      'fixtures/LICENSE-Apache-2.0.txt',
      'fixtures/catalogues/SOURCES.md',
      'fixtures/catalogues/KEYWORDS.md',
      'fixtures/recorded/SOURCES.md',
      'fixtures/recorded/sources.json',
    ]) {
      expect(existsSync(join(root, file)), file).toBe(true);
    }
    // Every catalogue file is named in SOURCES.md, so none arrives without a source and a licence.
    const sources = readFileSync(join(root, 'fixtures/catalogues/SOURCES.md'), 'utf8');
    const catalogues = readdirSync(join(root, 'fixtures/catalogues')).filter((name) => name.endsWith('.json'));
    expect(catalogues.length).toBeGreaterThan(0);
    for (const name of catalogues) expect(sources, name).toContain(name);
  });
});
