import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CatalogueTool } from './catalogue-tool.js';

/** Reads one catalogue file (any shape `parseCatalogue` knows) from disk. Node only. */
export async function loadCatalogueFile(path: string): Promise<CatalogueTool[]> {
  // Through the package's main entry, not parse-catalogue.js itself: the bundle of this entry then loads
  // that of `.` (one copy of CatalogueFormatError) instead of sharing a chunk every import of `.` would read.
  const [{ parseCatalogue }, text] = await Promise.all([import('../index.js'), readFile(path, 'utf8')]);
  return parseCatalogue(JSON.parse(text) as unknown, basename(path));
}
