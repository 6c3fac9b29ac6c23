import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What each package puts in the registry, read from the tarball `pnpm pack` makes (after `pnpm build`, as
// `pnpm test` runs it): only the files a user needs, and every file written by someone else shipped with its
// licence and notice, the package's `license` field naming every licence it ships under.

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Packed {
  readonly name: string;
  readonly tarball: string;
  readonly manifest: { license?: string };
}

/** Files every package may ship; anything else must be allowed for that package below. */
const COMMON = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)$/,
  /^src\/(?!.*\.test\.ts$).+\.ts$/,
];
const EXTRA: Readonly<Record<string, readonly RegExp[]>> = {
  '@toolcircuit/testing': [
    /^THIRD-PARTY-NOTICES\.md$/,
    /^third-party-licenses\/[\w.-]+\.txt$/,
    /^third-party-licenses\/SOURCES\.json$/,
    /^cassettes\/INDEX\.json$/,
    /^cassettes\/(anthropic|gemini|openai-chat|openai-responses)\/[^/]+\.json$/,
    /^conformance-cassettes\/[\w-]+\/[\w-]+(?:\.(?:native|tool))?\.generated\.json$/,
    /^synthetic-cassettes\/(anthropic|gemini|openai-chat|openai-responses)\/[\w.-]+\.json$/,
  ],
  // The trace viewer's built page, served by `toolcircuit trace open`, and the approval inbox's, by `toolcircuit serve`.
  '@toolcircuit/cli': [
    /^cassettes\/demo\/[\w-]+\.json$/,
    /^dist\/trace-viewer\/(index\.html|assets\/[\w-]+\.(js|css))$/,
    /^dist\/inbox\/(index\.html|assets\/[\w-]+\.(js|css))$/,
  ],
};
/** Text that marks code or data written by someone else (a bundled library keeps its licence comment). */
const FOREIGN_MARKER = /@license\b|SPDX-License-Identifier|Copyright \(c\)|\(c\) \d{4}/;
/** What a shipped licence text must contain for each SPDX id a third-party file is under. */
const LICENCE_TEXT: Readonly<Record<string, RegExp>> = {
  MIT: /Permission is hereby granted, free of charge/,
  'Apache-2.0': /Apache License\s+Version 2\.0, January 2004/,
};

let work = '';
let packed: Packed[] = [];
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'toolcircuit-tarballs-'));
  // The README's command itself: it must exit 0 (execFileSync throws otherwise) and name each tarball.
  const output = execFileSync('pnpm', ['pack:public', '--pack-destination', join(work, 'tarballs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = [...output.matchAll(/^(@toolcircuit\/[\w-]+) → (.+\.tgz)$/gm)].map(([, name = '', tarball = '']) => {
    const inside = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    return { name, tarball, manifest: JSON.parse(inside) as { license?: string } };
  });
}, 120_000);
afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** The tarball's files, extracted: path inside the package → text. */
function unpack(entry: Packed): Map<string, string> {
  const into = join(work, entry.name.replace('/', '__'));
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', entry.tarball, '-C', into]);
  const listing = execFileSync('tar', ['-tzf', entry.tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
    .map((line) => line.slice('package/'.length));
  return new Map(listing.map((path) => [path, readFileSync(join(into, 'package', path), 'utf8')]));
}

interface ThirdParty {
  readonly path: string;
  readonly repo: string;
  readonly license: string;
}

/** Files another project wrote: imported cassettes (their provenance says whose), or text with a licence mark. */
function thirdPartyFiles(files: Map<string, string>): { found: ThirdParty[]; unexplained: string[] } {
  const found: ThirdParty[] = [];
  const unexplained: string[] = [];
  for (const [path, text] of files) {
    if (path.startsWith('third-party-licenses/') || path === 'THIRD-PARTY-NOTICES.md' || path === 'LICENSE') continue;
    if (/(^|\/)cassettes\/.+\.json$/.test(path) && !path.endsWith('INDEX.json')) {
      const provenance = (JSON.parse(text) as { provenance?: { kind?: string; repo?: string; license?: string } })
        .provenance;
      if (provenance?.kind === 'imported' && provenance.repo !== undefined && provenance.license !== undefined) {
        found.push({ path, repo: provenance.repo, license: provenance.license });
      } else if (provenance?.kind !== 'synthetic' && provenance?.kind !== 'recorded') {
        unexplained.push(`${path}: a cassette whose provenance names no source and licence`);
      }
    } else if (FOREIGN_MARKER.test(text)) {
      unexplained.push(`${path}: carries a licence or copyright mark (${FOREIGN_MARKER.exec(text)?.[0]})`);
    }
  }
  return { found, unexplained };
}

describe('published tarballs', () => {
  it('`pnpm pack:public` packs every public package, the CLI included, and no private one', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual([
      '@toolcircuit/anthropic',
      '@toolcircuit/cli',
      '@toolcircuit/config',
      '@toolcircuit/core',
      '@toolcircuit/dbos',
      '@toolcircuit/google',
      '@toolcircuit/mcp',
      '@toolcircuit/openai',
      '@toolcircuit/otel',
      '@toolcircuit/schema',
      '@toolcircuit/server',
      '@toolcircuit/stores',
      '@toolcircuit/testing',
    ]);
  });

  it('each tarball holds only the files a user needs', () => {
    const outside: string[] = [];
    for (const entry of packed) {
      const allowed = [...COMMON, ...(EXTRA[entry.name] ?? [])];
      for (const path of unpack(entry).keys()) {
        if (!allowed.some((pattern) => pattern.test(path))) outside.push(`${entry.name}: ${path}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('every third-party file ships with its licence and notice, and `license` names every licence', () => {
    const problems: string[] = [];
    let thirdPartyCount = 0;
    for (const entry of packed) {
      const files = unpack(entry);
      const { found, unexplained } = thirdPartyFiles(files);
      problems.push(...unexplained.map((problem) => `${entry.name}: ${problem}`));
      thirdPartyCount += found.length;
      const notices = files.get('THIRD-PARTY-NOTICES.md') ?? '';
      for (const file of found) {
        const licenceFile = `third-party-licenses/${file.repo.replace('/', '__')}.LICENSE.txt`;
        const shippedTexts = [
          files.get(licenceFile) ?? '',
          files.get(`third-party-licenses/${file.license}.txt`) ?? '',
        ];
        const textPattern = LICENCE_TEXT[file.license];
        if (textPattern === undefined)
          problems.push(`${entry.name}: ${file.path} is under ${file.license}, unknown here`);
        else if (!shippedTexts.some((text) => textPattern.test(text))) {
          problems.push(`${entry.name}: ${file.path} (${file.license}): no shipped ${file.license} licence text`);
        }
        if (!files.has(licenceFile))
          problems.push(`${entry.name}: ${file.path}: ${file.repo}'s ${licenceFile} missing`);
        if (!notices.includes(`## ${file.repo} (${file.license})`) || !notices.includes(file.path)) {
          problems.push(`${entry.name}: ${file.path} is not listed under ${file.repo} in THIRD-PARTY-NOTICES.md`);
        }
      }
      // The package's own code is MIT; each licence of the data it ships joins with AND, none left out or extra.
      const expected = ['MIT', ...new Set(found.map((file) => file.license).filter((id) => id !== 'MIT'))];
      const declared = (entry.manifest.license ?? '').split(' AND ');
      if (declared[0] !== 'MIT' || [...declared].sort().join() !== [...new Set(['MIT', ...expected])].sort().join()) {
        problems.push(`${entry.name}: "license" is "${entry.manifest.license}", expected ${expected.join(' AND ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect(thirdPartyCount).toBeGreaterThan(0); // the testing package's imported cassettes were seen
  });

  it("the testing package's notices and licence field are what its cassettes say (the generator's --check)", () => {
    const check = (): string => {
      try {
        return execFileSync('node', ['packages/testing/scripts/write-third-party-notices.mjs', '--check'], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        return `failed: ${String((error as { stderr?: string }).stderr)}`;
      }
    };
    expect(check()).toBe('');
  });
});
