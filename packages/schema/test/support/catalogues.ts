import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogueFile } from '../../src/node.js';
import type { CatalogueFile } from '../../src/report/build-portability-report.js';

/** The real tool-definition corpus copied into the repository (`fixtures/catalogues`), or TOOLCIRCUIT_CATALOGUE_DIR. */
export const CATALOGUE_DIR =
  process.env.TOOLCIRCUIT_CATALOGUE_DIR ?? fileURLToPath(new URL('../../../../fixtures/catalogues', import.meta.url));

export function catalogueFileNames(): string[] {
  return readdirSync(CATALOGUE_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort();
}

export async function loadAllCatalogues(): Promise<CatalogueFile[]> {
  const files: CatalogueFile[] = [];
  for (const name of catalogueFileNames())
    files.push({ source: name, tools: await loadCatalogueFile(join(CATALOGUE_DIR, name)) });
  return files;
}
