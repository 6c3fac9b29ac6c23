import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The sources are grouped by concept (scripted/, cassettes/, replay/, record/, http/, conformance/, import/);
// only the public index sits at the top, and no module imports itself back through others.
const src = fileURLToPath(new URL('../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
    resolve(dirname(file), `${match[1]}.ts`),
  );
}

describe('packages/testing/src layout', () => {
  it('has only index.ts at the top; every other module is in a concept folder', () => {
    const top = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isFile());
    expect(top.map((entry) => entry.name)).toEqual(['index.ts']);
  });

  it('has no import cycle', () => {
    const graph = new Map(sourceFiles(src).map((file) => [file, importsOf(file)]));
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => relative(src, f)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
