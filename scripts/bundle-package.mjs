// @ts-check
// Builds the JavaScript of one workspace package for publishing (`node ../../scripts/bundle-package.mjs`
// from the package's folder, then `tsc --emitDeclarationOnly` writes the .d.ts files beside it): every
// entry of its `exports` map becomes one ES module bundled by esbuild from the entry's source, so a cold
// `import()` reads one file instead of the package's hundred-odd modules one by one (Node resolves, reads and compiles each separately, and
// that, not the code, was most of a cold import).
//
// Only the package's own code is bundled: every bare specifier (its dependencies, its peers, the other
// @toolcircuit packages, node built-ins) stays an import by name, so a project still gets one copy of each
// package and of each SDK. A package with several entries shares the modules they have in common through
// chunks under dist/chunks/ (never one copy per entry: an error class copied twice would fail `instanceof`).
// A `require` made with `createRequire(import.meta.url)` (ajv, the archived Gemini SDK) is left as it is:
// it resolves bare names from dist/ exactly as before, and stays lazy.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** @typedef {string | { [condition: string]: ExportTarget } | null} ExportTarget */

/**
 * The source of each JavaScript file the `exports` map points at: `./dist/a/b.js` is built from `src/a/b.ts`.
 * @param {Record<string, ExportTarget>} exportsMap
 * @returns {string[]}
 */
export function entrySources(exportsMap) {
  /** @type {Set<string>} */
  const sources = new Set();
  /** @param {ExportTarget} target */
  const visit = (target) => {
    if (typeof target === 'string') {
      const match = /^\.\/dist\/(.+)\.js$/.exec(target);
      if (match !== null) sources.add(`src/${match[1]}.ts`);
    } else if (target !== null && typeof target === 'object') {
      for (const value of Object.values(target)) visit(value);
    }
  };
  for (const [subpath, target] of Object.entries(exportsMap)) if (subpath !== './package.json') visit(target);
  return [...sources];
}

// A class at a module's top level, as written in the sources (`class Foo`) or as esbuild writes it in a
// bundle (`var Foo = class`, which names the class after the variable).
const TOP_LEVEL_CLASS =
  /^(?:export )?(?:default )?(?:abstract )?(?:class ([\w$]+)|(?:var|let|const) ([\w$]+) = class\b)/gm;

/**
 * The names of the classes declared at the top level of a module's text.
 * @param {string} code
 * @returns {string[]}
 */
function topLevelClasses(code) {
  return [...code.matchAll(TOP_LEVEL_CLASS)].map((match) => match[1] ?? match[2] ?? '');
}

/**
 * Bundles the package in `packageDir` into its dist/. Throws when the package has no `./dist/*.js` entry or
 * when esbuild had to rename a top-level class.
 *
 * The bundle is built beside dist/ and each file then renamed into it, so no file of dist/ is ever missing
 * or half-written: tests that build a package for a child process run while other tests import the same
 * package's dist/. JavaScript files dist/ held that this build did not write (modules of an earlier layout,
 * chunks of earlier contents) are removed afterwards; the declarations are tsc's, which runs next.
 * @param {string} packageDir
 * @returns {Promise<string[]>} the JavaScript files written, relative to the package
 */
export async function bundlePackage(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const entryPoints = entrySources(manifest.exports ?? {});
  if (entryPoints.length === 0) throw new Error(`${manifest.name}: no ./dist/*.js entry in its exports map`);
  const staging = `.dist-staging-${process.pid}`;
  rmSync(join(packageDir, staging), { recursive: true, force: true });
  try {
    return await bundleInto(packageDir, manifest.name, entryPoints, staging);
  } finally {
    rmSync(join(packageDir, staging), { recursive: true, force: true });
  }
}

/**
 * @param {string} packageDir
 * @param {string} name
 * @param {string[]} entryPoints
 * @param {string} staging the folder beside dist/ esbuild writes into
 * @returns {Promise<string[]>}
 */
async function bundleInto(packageDir, name, entryPoints, staging) {
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints,
    outbase: 'src',
    outdir: staging,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    ...(existsSync(join(packageDir, 'tsconfig.build.json')) ? { tsconfig: 'tsconfig.build.json' } : {}),
    packages: 'external',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    // The sources ship in the package (files: src), as they did with tsc's maps.
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  const read = (/** @type {string} */ path) => readFileSync(join(packageDir, path), 'utf8');
  // A class that two modules both declare at the top level is renamed by esbuild in the bundle (`Foo` →
  // `Foo2`), which changes its `.name`, and errors read theirs (`this.name = new.target.name`): the build
  // fails rather than publish a wrong name. (A renamed function only shows its new name in a stack trace,
  // which the source map maps back.)
  const declared = new Set(Object.keys(result.metafile.inputs).flatMap((input) => topLevelClasses(read(input))));
  const outputs = Object.keys(result.metafile.outputs);
  const staged = outputs.filter((output) => output.endsWith('.js'));
  for (const output of staged) {
    const renamed = topLevelClasses(read(output)).filter((className) => !declared.has(className));
    if (renamed.length > 0) {
      const file = join('dist', relative(staging, output));
      throw new Error(
        `${name}: esbuild renamed the classes ${renamed.join(', ')} in ${file}: two modules declare the same top-level name; rename one of them`,
      );
    }
  }
  const dist = join(packageDir, 'dist');
  const kept = new Set();
  for (const output of outputs) {
    const target = join(dist, relative(staging, output));
    mkdirSync(dirname(target), { recursive: true });
    renameSync(join(packageDir, output), target);
    kept.add(target);
  }
  removeStaleJavaScript(dist, kept);
  return staged.map((output) => join('dist', relative(staging, output)));
}

/**
 * Removes from `folder` every JavaScript file and source map not in `kept`, then the folders left empty.
 * @param {string} folder
 * @param {Set<string>} kept
 */
function removeStaleJavaScript(folder, kept) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      removeStaleJavaScript(path, kept);
      if (readdirSync(path).length === 0) rmdirSync(path);
    } else if (/\.js(\.map)?$/.test(entry.name) && !kept.has(path)) {
      rmSync(path);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bundlePackage(process.cwd());
}
