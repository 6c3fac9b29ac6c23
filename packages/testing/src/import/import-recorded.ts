import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CassetteIndex, CassetteIndexEntry } from '../cassettes/cassette-index.js';
import { buildIndexEntry } from './build-index-entry.js';
import { cassetteNameOf, convertSourceFile, DERIVED_SUFFIX } from './convert-source-file.js';
import { PROTOCOL_OF_GROUP, SOURCE_GROUPS, type SourceFile, type SourceGroup } from './source-file.js';
import { readSourceManifest } from './source-manifest.js';

/** Everything one import run produces: file contents keyed by path under the cassettes folder. */
export interface ImportResult {
  readonly files: ReadonlyMap<string, string>;
  readonly index: CassetteIndex;
}

export const INDEX_SOURCE = 'fixtures/recorded';

/**
 * `TOOLCIRCUIT_RECORDED_DIR`, else the repository's copy `fixtures/recorded` (see fixtures/README.md).
 * Resolved from this file, which sits at `<package>/{src,dist}/import/`.
 */
export function defaultSourceDirectory(): string {
  const fromEnv = process.env['TOOLCIRCUIT_RECORDED_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return fileURLToPath(new URL('../../../../fixtures/recorded/', import.meta.url));
}

/** Converts every file of the recorded folder in memory. Pure apart from reading: same input, same bytes out. */
export function importRecorded(sourceDir: string): ImportResult {
  const manifest = readSourceManifest(sourceDir);
  checkListing(
    sourceDir,
    manifest.map((entry) => entry.dest),
  );
  const byDest = new Map<string, SourceFile>();
  for (const entry of manifest) {
    const [group, name, ...rest] = entry.dest.split('/');
    if (!isGroup(group) || name === undefined || rest.length > 0) {
      throw new Error(`sources.json: ${entry.dest} is not <group>/<file>`);
    }
    const bytes = readFileSync(join(sourceDir, entry.dest));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // DERIVED rows carry no sha256 (they are not copies of a repository blob); every other row must match.
    if (!(entry.derived && entry.sha256 === '') && sha256 !== entry.sha256) {
      throw new Error(`${entry.dest}: sha256 ${sha256} ≠ sources.json ${entry.sha256}`);
    }
    if (bytes.length !== entry.bytes)
      throw new Error(`${entry.dest}: ${bytes.length} bytes ≠ sources.json ${entry.bytes}`);
    byDest.set(entry.dest, {
      entry,
      sha256,
      group,
      protocol: PROTOCOL_OF_GROUP[group],
      name,
      text: bytes.toString('utf8'),
      companion: (other) => byDest.get(`${group}/${other}`),
    });
  }

  const files = new Map<string, string>();
  const entries: CassetteIndexEntry[] = [];
  const companionUsers = new Map<string, string>();
  const sorted = [...byDest.values()].sort((a, b) => compare(a.entry.dest, b.entry.dest));
  for (const file of sorted) {
    if (file.name.endsWith(DERIVED_SUFFIX)) continue;
    const name = cassetteNameOf(file.entry.dest);
    if (files.has(`${name}.json`)) throw new Error(`${file.entry.dest}: cassette name ${name} is taken twice`);
    const { cassette, companions } = convertSourceFile(file);
    for (const companion of companions) companionUsers.set(companion.entry.dest, name);
    files.set(`${name}.json`, `${JSON.stringify(cassette, null, 2)}\n`);
    entries.push(buildIndexEntry(name, cassette, file.sha256, file.entry.dest));
  }
  for (const file of sorted) {
    if (!file.name.endsWith(DERIVED_SUFFIX)) continue;
    const user = companionUsers.get(file.entry.dest);
    // A DERIVED file nobody read would be a silent skip: refuse it.
    if (user === undefined) throw new Error(`${file.entry.dest}: DERIVED file that no cassette reads`);
    entries.push({
      sourceFile: file.entry.dest,
      sha256: file.sha256,
      cassette: null,
      skipReason: `DERIVED gunzip of the response bodies of ${user}'s source; that cassette's bodies are this file's text (see its provenance.companionFiles), so it is no cassette of its own.`,
    });
  }
  entries.sort((a, b) => compare(a.sourceFile, b.sourceFile));
  const index: CassetteIndex = { format: 'toolcircuit-cassette-index/1', source: INDEX_SOURCE, entries };
  files.set('INDEX.json', `${JSON.stringify(index, null, 2)}\n`);
  return { files, index };
}

/**
 * Writes an import into the cassettes folder and deletes imported cassettes whose source is gone.
 * Recorded and synthetic cassettes in the same folders are left alone.
 */
export async function writeImport(
  result: ImportResult,
  outDir: string,
): Promise<{ written: number; removed: string[] }> {
  const removed: string[] = [];
  for (const group of SOURCE_GROUPS) {
    let names: string[];
    try {
      names = await readdir(join(outDir, group));
    } catch {
      continue;
    }
    for (const name of names) {
      const relative = `${group}/${name}`;
      if (!name.endsWith('.json') || result.files.has(relative)) continue;
      const text = await readFile(join(outDir, relative), 'utf8');
      if ((JSON.parse(text) as { provenance?: { kind?: string } }).provenance?.kind === 'imported') {
        await rm(join(outDir, relative));
        removed.push(relative);
      }
    }
  }
  for (const [relative, text] of result.files) {
    await mkdir(dirname(join(outDir, relative)), { recursive: true });
    await writeFile(join(outDir, relative), text);
  }
  return { written: result.files.size, removed };
}

/** Paths under the cassettes folder whose committed text differs from (or is missing for) this import. */
export function staleFiles(result: ImportResult, outDir: string): string[] {
  const stale: string[] = [];
  for (const [relative, text] of result.files) {
    let committed: string | undefined;
    try {
      committed = readFileSync(join(outDir, relative), 'utf8');
    } catch {
      committed = undefined;
    }
    if (committed !== text) stale.push(relative);
  }
  return stale;
}

function checkListing(sourceDir: string, dests: readonly string[]): void {
  const listed = new Set(dests);
  const onDisk: string[] = [];
  for (const group of SOURCE_GROUPS) {
    for (const name of readdirSync(join(sourceDir, group))) onDisk.push(`${group}/${name}`);
  }
  const unlisted = onDisk.filter((dest) => !listed.has(dest));
  const missing = dests.filter((dest) => !onDisk.includes(dest));
  if (unlisted.length > 0) throw new Error(`files without a sources.json row (no provenance): ${unlisted.join(', ')}`);
  if (missing.length > 0) throw new Error(`sources.json rows without a file: ${missing.join(', ')}`);
}

function isGroup(value: string | undefined): value is SourceGroup {
  return SOURCE_GROUPS.includes(value as SourceGroup);
}

// Code-unit order, not locale order: the output must not depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
