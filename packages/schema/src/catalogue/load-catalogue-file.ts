import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CatalogueTool } from './catalogue-tool.js';
import { parseCatalogue } from './parse-catalogue.js';

/** Reads one catalogue file (any shape `parseCatalogue` knows) from disk. Node only. */
export async function loadCatalogueFile(path: string): Promise<CatalogueTool[]> {
  const text = await readFile(path, 'utf8');
  return parseCatalogue(JSON.parse(text) as unknown, basename(path));
}
