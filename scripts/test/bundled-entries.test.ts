import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// A plain ES module script (no declarations): its two functions are typed below.
import { bundlePackage, entrySources } from '../bundle-package.mjs';

// The published packages are built by scripts/bundle-package.mjs (one esbuild bundle per `exports` entry,
// after `pnpm build`, which `pnpm test` runs first): what a project then loads, and that the bundling
// keeps what matters (one copy of shared code, ajv loaded lazily, the classes' names).
const root = fileURLToPath(new URL('../..', import.meta.url));
interface Manifest {
  name: string;
  exports: Record<string, unknown>;
  scripts?: Record<string, string>;
}
const bundled = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir: join(root, 'packages', dir) }))
  .map(({ dir }) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => manifest.scripts?.['build']?.includes('bundle-package.mjs') === true);

const typedBundlePackage = bundlePackage as (dir: string, options?: { lazy?: readonly string[] }) => Promise<string[]>;
const typedEntrySources = entrySources as (exportsMap: Record<string, unknown>) => string[];

function* jsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

/** The relative specifiers a built module imports (statically or with `import()`). */
function relativeImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s*)["'](\.{1,2}\/[^"']+)["']/gm)].map(
    (match) => match[1] ?? '',
  );
}

function runNode(code: string, cwd: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
}

describe('bundled package entries', () => {
  it('covers core, schema and the three adapters', () => {
    expect(bundled.map(({ manifest }) => manifest.name)).toEqual(
      expect.arrayContaining([
        '@toolcircuit/core',
        '@toolcircuit/schema',
        '@toolcircuit/anthropic',
        '@toolcircuit/openai',
        '@toolcircuit/google',
      ]),
    );
  });

  it.each(bundled.map(({ dir, manifest }) => [manifest.name, dir, manifest] as const))(
    '%s: dist holds one module per exports entry plus shared chunks, each with its source map into src/',
    (_name, dir, manifest) => {
      const entries = typedEntrySources(manifest.exports).map((source) =>
        source.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js'),
      );
      expect(entries.length).toBeGreaterThan(0);
      const files = [...jsFiles(join(dir, 'dist'))].map((file) => relative(dir, file)).sort();
      const chunks = files.filter((file) => file.startsWith('dist/chunks/'));
      expect(files).toEqual([...entries, ...chunks].sort());
      let mapped = 0;
      for (const file of files) {
        // Only chunks and the package's own entries are imported by path (schema's ./node loads `.` on first
        // use): everything else is imported by name.
        for (const specifier of relativeImports(readFileSync(join(dir, file), 'utf8'))) {
          const target = relative(dir, join(dir, dirname(file), specifier));
          expect(
            /^dist\/chunks\/[^/]+\.js$/.test(target) || entries.includes(target),
            `${file} imports ${specifier}`,
          ).toBe(true);
        }
        // An entry that only re-exports a chunk (core's ./provider) maps no source of its own.
        const map = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8')) as { sources: string[] };
        mapped += map.sources.length;
        for (const source of map.sources) {
          // A stand-in for a dependency loaded on first use (see scripts/bundle-package.mjs) maps to no file.
          if (/^lazy-module:(?:@[\w.-]+\/)?[\w.-]+$/.test(source)) continue;
          const path = relative(dir, join(dir, dirname(file), source));
          expect(path, `${file}.map`).toMatch(/^src\//);
          expect(existsSync(join(dir, path)), path).toBe(true);
        }
      }
      expect(mapped).toBeGreaterThan(0);
      // The declarations stay tsc's, one per source file, beside the bundles.
      for (const entry of entries) expect(existsSync(join(dir, entry.replace(/\.js$/, '.d.ts'))), entry).toBe(true);
    },
  );

  it.each(['schema', 'anthropic', 'openai', 'google'])(
    '@toolcircuit/%s loads core only through its ./provider entry (a tenth of core), never the whole of it',
    (dir) => {
      const files = [...jsFiles(join(root, 'packages', dir, 'dist'))];
      const code = files.map((file) => readFileSync(file, 'utf8')).join('\n');
      expect(code).toMatch(/from ["']@toolcircuit\/core\/provider["']/);
      // A value imported from '@toolcircuit/core' (or an import kept for a type alone) loads all of core.
      expect(code).not.toMatch(/(?:from|import)\s*["']@toolcircuit\/core["']/);
    },
  );

  it('importing core, schema and every adapter loads no ajv; the first catalogue with a JSON Schema does', () => {
    // The CLI depends on every public package, so their names resolve from its folder.
    const output = runNode(
      `import { createRequire } from 'node:module';
       const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\\\/]ajv[\\\\/]/.test(path));
       const core = await import('@toolcircuit/core');
       for (const name of ['@toolcircuit/schema', '@toolcircuit/schema/node', '@toolcircuit/anthropic', '@toolcircuit/openai', '@toolcircuit/google'])
         await import(name);
       const before = loaded();
       core.createCatalogue([core.defineTool({ name: 'echo', description: 'Echoes its text.', right: core.everySession,
         inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, run: (input) => input })]);
       process.stdout.write(JSON.stringify({ before, after: loaded() }));`,
      join(root, 'apps/cli'),
    );
    expect(JSON.parse(output)).toEqual({ before: false, after: true });
  });

  it("no import parses schema's translator, nor an adapter schema at all; the first call that needs one loads it", () => {
    const lazyOf = (manifest: Manifest) =>
      [...(manifest.scripts?.['build'] ?? '').matchAll(/--lazy=(\S+)/g)].map((match) => match[1] ?? '');
    const chunks = bundled.flatMap(({ dir, manifest }) =>
      lazyOf(manifest)
        .filter((lazy) => lazy.startsWith('src/'))
        .map((source) => join(dir, 'dist/chunks', source.replace(/^.*\//, '').replace(/\.ts$/, '.js'))),
    );
    // schema's translator and checkers: the bulk of its code, which only preparing tools needs.
    expect(chunks.map((file) => relative(root, file)).sort()).toEqual([
      'packages/schema/dist/chunks/check-provider-schema.js',
      'packages/schema/dist/chunks/schema-engine.js',
    ]);
    for (const file of chunks) expect(existsSync(file), file).toBe(true);
    // Each adapter loads schema itself on first use: it needs it only to prepare tools and restore inputs.
    for (const adapter of ['anthropic', 'openai', 'google']) {
      const found = bundled.find(({ manifest }) => manifest.name === `@toolcircuit/${adapter}`);
      expect(found && lazyOf(found.manifest), adapter).toEqual(['@toolcircuit/schema']);
    }
    const watched = [join(root, 'packages/schema/dist/index.js'), ...chunks];
    // The inspector reports every script V8 compiles, an ES module loaded by `require` included. The CLI
    // depends on every public package, so their names resolve from its folder.
    const output = runNode(
      `import { Session } from 'node:inspector';
       import { fileURLToPath } from 'node:url';
       const session = new Session();
       session.connect();
       const parsed = new Set();
       session.on('Debugger.scriptParsed', ({ params }) => { if (params.url.startsWith('file:')) parsed.add(fileURLToPath(params.url)); });
       session.post('Debugger.enable');
       const watched = ${JSON.stringify(watched)};
       const loaded = () => watched.filter((file) => parsed.has(file)).map((file) => file.split('/').slice(-2).join('/')).sort();
       await import('@toolcircuit/core');
       const anthropic = await import('@toolcircuit/anthropic');
       await import('@toolcircuit/openai');
       await import('@toolcircuit/google');
       const adaptersImported = loaded();
       const prepared = anthropic.prepareAnthropicTools([{ name: 'look.up', description: 'Looks up.',
         inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] } }]);
       const afterPreparing = loaded();
       const schema = await import('@toolcircuit/schema');
       await import('@toolcircuit/schema/node');
       const refusal = (() => { try { schema.translateSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, 'anthropic'); } catch (error) { return error; } })();
       const afterSchemaImported = loaded();
       const violations = schema.checkProviderSchema({ type: 'object', properties: { n: { $ref: '#/x' } } }, 'gemini').map((violation) => violation.rule);
       process.stdout.write(JSON.stringify({ adaptersImported, afterPreparing, afterSchemaImported, afterCheck: loaded(),
         tool: prepared.tools[0], refusal: refusal instanceof schema.SchemaTranslationError, violations }));`,
      join(root, 'apps/cli'),
    );
    const result = JSON.parse(output) as Record<string, unknown>;
    expect(result).toMatchObject({
      adaptersImported: [],
      afterPreparing: ['chunks/schema-engine.js', 'dist/index.js'],
      afterSchemaImported: ['chunks/schema-engine.js', 'dist/index.js'],
      afterCheck: ['chunks/check-provider-schema.js', 'chunks/schema-engine.js', 'dist/index.js'],
      tool: {
        name: 'look_up',
        description: 'Looks up.',
        input_schema: {
          type: 'object',
          properties: { n: { type: 'integer', description: '(minimum: 1)' } },
          required: ['n'],
        },
      },
      // An error thrown in the lazily loaded module is the class the entry exports: one module graph.
      refusal: true,
      violations: expect.arrayContaining(['gemini/unknown-keyword']),
    });
  });

  it.each(bundled.map(({ dir, manifest }) => [manifest.name, dir, manifest] as const))(
    '%s: every exported class keeps its name',
    (name, dir, manifest) => {
      const entries = Object.keys(manifest.exports)
        .filter((key) => key !== './package.json')
        .map((key) => name + key.slice(1));
      // From the package's own folder its name resolves to itself (self-reference through the exports map).
      const output = runNode(
        `const renamed = [];
         for (const entry of ${JSON.stringify(entries)}) {
           for (const [key, value] of Object.entries(await import(entry)))
             if (typeof value === 'function' && /^class\\b/.test(Function.prototype.toString.call(value)) && value.name !== key)
               renamed.push(entry + ': ' + key + ' is named ' + value.name);
         }
         process.stdout.write(JSON.stringify(renamed));`,
        dir,
      );
      expect(JSON.parse(output)).toEqual([]);
    },
  );

  it("an error class is one class for all of a package's entries (schema's `.` and `./node`)", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'toolcircuit-catalogue-')), 'not-a-catalogue.json');
    writeFileSync(file, '{"not": "a catalogue"}');
    try {
      const output = runNode(
        `const { CatalogueFormatError } = await import('@toolcircuit/schema');
         const { loadCatalogueFile } = await import('@toolcircuit/schema/node');
         const error = await loadCatalogueFile(${JSON.stringify(file)}).then(() => undefined, (caught) => caught);
         process.stdout.write(JSON.stringify({ name: error?.name, shared: error instanceof CatalogueFormatError }));`,
        join(root, 'packages/schema'),
      );
      expect(JSON.parse(output)).toEqual({ name: 'CatalogueFormatError', shared: true });
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
    }
  });
});

describe('scripts/bundle-package.mjs', () => {
  const work = mkdtempSync(join(tmpdir(), 'toolcircuit-bundle-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function syntheticPackage(name: string, files: Record<string, string>): string {
    const dir = join(work, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }
  const manifest = (exportsMap: Record<string, unknown>) =>
    JSON.stringify({ name: 'synthetic', type: 'module', exports: exportsMap });

  it('bundles each entry, shares common modules through a chunk, keeps bare imports and stale files out', async () => {
    const dir = syntheticPackage('shared', {
      'package.json': manifest({
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
        './package.json': './package.json',
      }),
      'src/index.ts': "export { Shared } from './shared.js';\nexport const one = 1;\n",
      'src/extra.ts':
        "import { join } from 'node:path';\nimport { Shared } from './shared.js';\nexport const make = () => new Shared(join('a', 'b'));\n",
      'src/shared.ts':
        "import { something } from 'a-dependency';\nexport class Shared {\n  constructor(readonly path: string) { void something; }\n}\n",
      'dist/stale/old-module.js': 'export {};\n',
    });
    const written = (await typedBundlePackage(dir)).sort();
    expect(written.filter((file) => !file.startsWith('dist/chunks/'))).toEqual(['dist/extra.js', 'dist/index.js']);
    expect(written.filter((file) => file.startsWith('dist/chunks/'))).toHaveLength(1);
    expect(existsSync(join(dir, 'dist/stale'))).toBe(false);
    const chunk = readFileSync(join(dir, written.find((file) => file.startsWith('dist/chunks/')) ?? ''), 'utf8');
    expect(chunk).toContain('var Shared = class');
    expect(chunk).toMatch(/from ["']a-dependency["']/);
    expect(readFileSync(join(dir, 'dist/extra.js'), 'utf8')).toMatch(/from ["']node:path["']/);
  });

  it('bundles a --lazy module on its own and loads it on the first call of one of its functions', async () => {
    const dir = syntheticPackage('lazy', {
      'package.json': manifest({ '.': { types: './dist/index.d.ts', default: './dist/index.js' } }),
      'src/index.ts': "export { add, label } from './heavy.js';\nexport const light = 1;\n",
      'src/heavy.ts':
        "import { Counted } from './counted.js';\nconst g = globalThis as { heavyLoads?: number };\ng.heavyLoads = (g.heavyLoads ?? 0) + 1;\nexport function add(a: number, b: number): number { return a + b; }\nexport function label(): string { return new Counted().name; }\n",
      'src/counted.ts': "export class Counted { readonly name = 'counted'; }\n",
    });
    const written = (await typedBundlePackage(dir, { lazy: ['src/heavy.ts'] })).sort();
    expect(written).toContain('dist/chunks/heavy.js');
    expect(readFileSync(join(dir, 'dist/index.js'), 'utf8')).not.toContain('heavyLoads');
    const output = runNode(
      `const lib = await import('./dist/index.js');
       const before = globalThis.heavyLoads ?? 0;
       const sum = lib.add(2, 3);
       process.stdout.write(JSON.stringify({ before, sum, label: lib.label(), after: globalThis.heavyLoads, name: lib.add.name }));`,
      dir,
    );
    expect(JSON.parse(output)).toEqual({ before: 0, sum: 5, label: 'counted', after: 1, name: 'add' });
  });

  it('loads a --lazy dependency by name on the first call, and refuses importing anything but its functions', async () => {
    const dependency = {
      'node_modules/fake-dep/package.json': JSON.stringify({ name: 'fake-dep', type: 'module', exports: './index.js' }),
      'node_modules/fake-dep/index.js':
        'globalThis.fakeDepLoads = (globalThis.fakeDepLoads ?? 0) + 1;\nexport function double(n) { return 2 * n; }\nexport class Thing {}\n',
    };
    const dir = syntheticPackage('lazy-dependency', {
      ...dependency,
      'package.json': manifest({ '.': './dist/index.js' }),
      'src/index.ts':
        "// @ts-nocheck\nimport { double } from 'fake-dep';\nexport const quadruple = (n: number): number => double(double(n));\n",
    });
    await typedBundlePackage(dir, { lazy: ['fake-dep'] });
    const code = readFileSync(join(dir, 'dist/index.js'), 'utf8');
    expect(code).not.toMatch(/from ["']fake-dep["']/);
    const output = runNode(
      `const lib = await import('./dist/index.js');
       const before = globalThis.fakeDepLoads ?? 0;
       const value = lib.quadruple(3);
       process.stdout.write(JSON.stringify({ before, value, after: globalThis.fakeDepLoads }));`,
      dir,
    );
    expect(JSON.parse(output)).toEqual({ before: 0, value: 12, after: 1 });
    const classUser = syntheticPackage('lazy-dependency-class', {
      ...dependency,
      'package.json': manifest({ '.': './dist/index.js' }),
      'src/index.ts': "// @ts-nocheck\nimport { Thing } from 'fake-dep';\nexport const make = () => new Thing();\n",
    });
    await expect(typedBundlePackage(classUser, { lazy: ['fake-dep'] })).rejects.toThrow(/Thing/);
  });

  it('a failed build prints nothing: its messages are in the error it throws (no red ✘ [ERROR] for a handled failure)', () => {
    const dir = syntheticPackage('fails-quietly', {
      'package.json': manifest({ '.': './dist/index.js' }),
      'src/index.ts': "// @ts-nocheck\nimport { missing } from './other.js';\nexport const x = missing;\n",
      'src/other.ts': 'export const present = 1;\n',
    });
    const script = pathToFileURL(join(root, 'scripts/bundle-package.mjs')).href;
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { bundlePackage } = await import(${JSON.stringify(script)});
         try { await bundlePackage(process.cwd()); console.log('built'); }
         catch (error) { console.log(/No matching export/.test(error.message) ? 'threw with the message' : error.message); }`,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(result.stdout.trim()).toBe('threw with the message');
    expect(result.stderr).toBe('');
  });

  it('refuses a --lazy module that exports anything but functions (a stand-in can only forward calls)', async () => {
    const dir = syntheticPackage('lazy-table', {
      'package.json': manifest({ '.': './dist/index.js' }),
      'src/index.ts': "export { TABLE, look } from './table.js';\n",
      'src/table.ts': "export const TABLE = { a: 1 };\nexport function look(key: 'a'): number { return TABLE[key]; }\n",
    });
    await expect(typedBundlePackage(dir, { lazy: ['src/table.ts'] })).rejects.toThrow(
      /exports TABLE, which are not functions/,
    );
  });

  it('fails when two modules declare the same top-level class (esbuild would rename one)', async () => {
    const dir = syntheticPackage('clash', {
      'package.json': manifest({ '.': './dist/index.js' }),
      'src/index.ts': "export { Thing as A } from './a.js';\nexport { Thing as B } from './b.js';\n",
      'src/a.ts': 'export class Thing {}\n',
      'src/b.ts': 'export class Thing extends Error {}\n',
    });
    await expect(typedBundlePackage(dir)).rejects.toThrow(/renamed the classes Thing2/);
  });
});
