import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPortabilityReport } from '../src/report/build-portability-report.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { loadExtraCatalogues } from './support/extra-catalogues.js';

describe('PORTABILITY.md', () => {
  it('is what `pnpm --filter @toolcircuit/schema report` generates from the current catalogues and code', async () => {
    const committed = readFileSync(fileURLToPath(new URL('../PORTABILITY.md', import.meta.url)), 'utf8');
    const files = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
    expect(buildPortabilityReport(files)).toBe(committed);
  }, 120_000);
});
