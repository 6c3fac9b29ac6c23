import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalogueFile } from '../../src/node.js';
import type { CatalogueFile } from '../../src/report/build-portability-report.js';

/**
 * The extra corpus recorded from MCP servers published on npm (fixtures/corpus-extra/SOURCES.md). It lives
 * in this package, beside the test code, so it is found the same way wherever the shared corpus is read from.
 */
export const EXTRA_CATALOGUE_DIR = fileURLToPath(new URL('../fixtures/corpus-extra/', import.meta.url));

export async function loadExtraCatalogues(): Promise<CatalogueFile[]> {
  const names = readdirSync(EXTRA_CATALOGUE_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const files: CatalogueFile[] = [];
  for (const name of names)
    files.push({ source: `extra/${name}`, tools: await loadCatalogueFile(`${EXTRA_CATALOGUE_DIR}${name}`) });
  return files;
}
