import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCassettes, loadSyntheticCassette, syntheticCassettesDirectory } from '../src/index.js';
import { renderSyntheticCassettes } from '../src/synthetic/synthetic-cassettes.js';

describe('synthetic cassettes', () => {
  it('are exactly what their definitions render (run write-synthetic after changing one)', () => {
    const directory = syntheticCassettesDirectory();
    const files = renderSyntheticCassettes();
    const onDisk = readdirSync(directory, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.split(sep).join('/'))
      .sort();
    expect(onDisk).toEqual([...files.keys()].sort());
    for (const [file, text] of files) expect(readFileSync(join(directory, file), 'utf8'), file).toBe(text);
  });

  it('each says it is synthetic, and none hides among the recorded cassettes', () => {
    const names = listCassettes({ directory: syntheticCassettesDirectory() });
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const { provenance } = loadSyntheticCassette(name);
      expect(provenance.kind, name).toBe('synthetic');
      expect(provenance.note, name).toMatch(/^Synthetic: .+NOT real traffic/);
    }
    const recorded = new Set(listCassettes());
    for (const name of names) expect(recorded.has(name), name).toBe(false);
  });
});
