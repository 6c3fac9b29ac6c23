import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cassette, CassetteProtocol } from './cassette.js';
import { CassetteFormatError } from './cassette-format-error.js';
import type { CassetteIndex } from './cassette-index.js';
import { validateCassette } from './validate-cassette.js';

export interface CassetteLocation {
  /** Folder holding `<group>/<name>.json` cassettes; defaults to the package's committed `cassettes/`. */
  readonly directory?: string;
}

export interface ListCassettesOptions extends CassetteLocation {
  readonly protocol?: CassetteProtocol;
}

const INDEX_FILE = 'INDEX.json';

/**
 * The committed cassettes folder. Resolved from this module's own file, which sits one level below the
 * package root both as `src/load-cassette.ts` and as `dist/load-cassette.js`.
 */
export function cassettesDirectory(): string {
  return fileURLToPath(new URL('../../cassettes/', import.meta.url));
}

/**
 * Reads and validates one cassette by name: `anthropic/vercel-ai__anthropic-tool-no-args` (the `.json`
 * suffix is optional). Names are paths relative to the cassettes folder, with `/` separators.
 * @throws CassetteFormatError when the file is missing, is not JSON, or is not a valid cassette.
 */
export function loadCassette(name: string, options: CassetteLocation = {}): Cassette {
  const directory = options.directory ?? cassettesDirectory();
  const file = resolveName(directory, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    const known = listNames(directory);
    const close = known.filter((candidate) => candidate.includes(baseOf(stripJson(name)))).slice(0, 5);
    const hint =
      close.length > 0 ? `; did you mean ${close.join(', ')}?` : `; ${known.length} cassette(s) in ${directory}`;
    throw new CassetteFormatError(name, [`(file) ${file} cannot be read${hint}`], { cause });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new CassetteFormatError(name, [`(file) ${file} is not JSON: ${(cause as Error).message}`], { cause });
  }
  return validateCassette(parsed, name);
}

/** Names of the cassettes in the folder, sorted; with `protocol`, only those speaking it (files are validated). */
export function listCassettes(options: ListCassettesOptions = {}): string[] {
  const directory = options.directory ?? cassettesDirectory();
  const names = listNames(directory);
  const { protocol } = options;
  if (protocol === undefined) return names;
  return names.filter((name) => loadCassette(name, { directory }).protocol === protocol);
}

/** The generated `INDEX.json`: every recorded source file, its cassette, per-response summaries, skip reasons. */
export function loadCassetteIndex(options: CassetteLocation = {}): CassetteIndex {
  const directory = options.directory ?? cassettesDirectory();
  const file = join(directory, INDEX_FILE);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CassetteIndex>;
  if (parsed.format !== 'toolcircuit-cassette-index/1' || !Array.isArray(parsed.entries)) {
    throw new CassetteFormatError(file, ['(root) is not a toolcircuit-cassette-index/1 file']);
  }
  return parsed as CassetteIndex;
}

function listNames(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith('.json') && entry !== INDEX_FILE)
    .map((entry) => stripJson(entry.split(sep).join('/')))
    .sort();
}

function resolveName(directory: string, name: string): string {
  const file = normalize(join(directory, `${stripJson(name)}.json`));
  const inside = relative(directory, file);
  // A name is a path inside the folder; refuse `../` tricks so a typo cannot read an arbitrary file.
  if (name === '' || isAbsolute(name) || inside.startsWith('..') || isAbsolute(inside)) {
    throw new CassetteFormatError(name, ['(name) must be a relative name like "anthropic/<file>" inside the folder']);
  }
  return file;
}

function stripJson(name: string): string {
  return name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
}

function baseOf(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}
