import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One row of fixtures/recorded/sources.json: where a recorded file came from. */
export interface SourceEntry {
  /** Path under the recorded folder: `<group>/<file>`. */
  readonly dest: string;
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  readonly license: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly desc: string;
  /** Text taken from a code-search index at `commit` rather than from a fetched snapshot. */
  readonly index_only: boolean;
  /** Not a copy: produced from another file in the folder (gunzipped bodies). */
  readonly derived: boolean;
  /** The collector's own per-response reading, e.g. `200 anthropic calls=4 stop=tool_use …`. */
  readonly verified_summary: readonly string[];
}

/**
 * The rows of `sources.json` (the upstream collection) and of `sources-added.json` (recordings this repository
 * added to it, same format), when that file exists.
 */
export function readSourceManifest(sourceDir: string): SourceEntry[] {
  const rows = readRows(join(sourceDir, 'sources.json'));
  const added = join(sourceDir, ADDED_SOURCES_FILE);
  return existsSync(added) ? [...rows, ...readRows(added)] : rows;
}

/** Recordings added in this repository beyond the upstream collection (kept apart so a refresh keeps them). */
export const ADDED_SOURCES_FILE = 'sources-added.json';

function readRows(file: string): SourceEntry[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected an array of source entries`);
  return parsed.map((row: unknown, index) => checkEntry(row, `${file}[${index}]`));
}

function checkEntry(row: unknown, where: string): SourceEntry {
  if (typeof row !== 'object' || row === null) throw new Error(`${where}: expected an object`);
  const value = row as Record<string, unknown>;
  for (const key of ['dest', 'repo', 'path', 'commit', 'license', 'sha256', 'desc']) {
    if (typeof value[key] !== 'string') throw new Error(`${where}.${key}: expected a string`);
  }
  if (typeof value['bytes'] !== 'number') throw new Error(`${where}.bytes: expected a number`);
  if (!Array.isArray(value['verified_summary'])) throw new Error(`${where}.verified_summary: expected an array`);
  return value as unknown as SourceEntry;
}
