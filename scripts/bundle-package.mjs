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
//
// `--lazy=src/x.ts` (repeatable) makes one module of the package load on first use instead of on import: a
// cold import's cost is mostly parsing and compiling the code it reads, so a large module that only some
// calls need (schema's translator) should not be read by every import. The module is bundled as its own
// file, dist/chunks/x.js (sharing chunks with the entries, so a class stays one class); every import of it
// from the entries' code gets a stand-in that exports a function of the same name per export, which loads
// the module with `require` (Node ≥ 20.19 loads an ES module synchronously that way, into the same module
// cache as `import`) and forwards the call. The module may therefore export only functions (types aside),
// and the functions stay synchronous. The sources are unchanged: tests that import them load it eagerly.
// `--lazy=<dependency>` does the same for another package the code imports functions from (the adapters'
// `@toolcircuit/schema`): the stand-in requires it by name on the first call. Like ajv, a lazily required
// module is out of sight of an application's own bundler, which must keep it external.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, formatMessages } from 'esbuild';

/**
 * Prints esbuild's warnings as its own logger would (errors are in the error a failed build throws).
 * @param {import('esbuild').Message[]} warnings
 */
async function printWarnings(warnings) {
  if (warnings.length === 0) return;
  const text = await formatMessages(warnings, { kind: 'warning', color: process.stderr.isTTY === true });
  process.stderr.write(text.join(''));
}

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
 * Bundles the package in `packageDir` into its dist/. Throws when the package has no `./dist/*.js` entry,
 * when esbuild had to rename a top-level class, or when a lazy module exports something other than a function.
 *
 * The bundle is built beside dist/ and each file then renamed into it, so no file of dist/ is ever missing
 * or half-written: tests that build a package for a child process run while other tests import the same
 * package's dist/. JavaScript files dist/ held that this build did not write (modules of an earlier layout,
 * chunks of earlier contents) are removed afterwards; the declarations are tsc's, which runs next.
 * @param {string} packageDir
 * @param {{ lazy?: readonly string[] }} [options] `lazy`: sources (`src/x.ts`) or dependencies loaded on first use
 * @returns {Promise<string[]>} the JavaScript files written, relative to the package
 */
export async function bundlePackage(packageDir, options = {}) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const entryPoints = entrySources(manifest.exports ?? {});
  if (entryPoints.length === 0) throw new Error(`${manifest.name}: no ./dist/*.js entry in its exports map`);
  const staging = `.dist-staging-${process.pid}`;
  rmSync(join(packageDir, staging), { recursive: true, force: true });
  try {
    const lazy = await lazyModules(packageDir, manifest.name, options.lazy ?? [], staging);
    return await bundleInto(packageDir, manifest.name, entryPoints, lazy, staging);
  } finally {
    rmSync(join(packageDir, staging), { recursive: true, force: true });
  }
}

/**
 * What every esbuild build of a package shares: one ES module per entry for Node, the package's own code
 * only (bare specifiers stay imports by name).
 * @param {string} packageDir
 * @returns {import('esbuild').BuildOptions}
 */
function commonOptions(packageDir) {
  return {
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    ...(existsSync(join(packageDir, 'tsconfig.build.json')) ? { tsconfig: 'tsconfig.build.json' } : {}),
    packages: 'external',
  };
}

/**
 * @param {string} packageDir
 * @param {string} name
 * @param {string[]} entryPoints
 * @param {Map<string, LazyModule>} lazy by absolute source path or package name
 * @param {string} staging the folder beside dist/ esbuild writes into
 * @returns {Promise<string[]>}
 */
async function bundleInto(packageDir, name, entryPoints, lazy, staging) {
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: [
      ...entryPoints.map((source) => ({ in: source, out: source.replace(/^src\//, '').replace(/\.ts$/, '') })),
      ...[...lazy.values()].flatMap(({ source, out }) =>
        source === undefined || out === undefined ? [] : [{ in: source, out: out.replace(/\.js$/, '') }],
      ),
    ],
    plugins: lazy.size > 0 ? [lazyModulePlugin(lazy)] : [],
    outbase: 'src',
    outdir: staging,
    ...commonOptions(packageDir),
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    // The sources ship in the package (files: src), as they did with tsc's maps.
    sourcesContent: false,
    metafile: true,
    // Errors come back in the thrown error's message; printing them as well would put a red "✘ [ERROR]" on
    // the terminal for a failure a caller expects and handles (the bundler's own tests provoke some).
    logLevel: 'silent',
  });
  await printWarnings(result.warnings);
  const read = (/** @type {string} */ path) => readFileSync(join(packageDir, path), 'utf8');
  // A class that two modules both declare at the top level is renamed by esbuild in the bundle (`Foo` →
  // `Foo2`), which changes its `.name`, and errors read theirs (`this.name = new.target.name`): the build
  // fails rather than publish a wrong name. (A renamed function only shows its new name in a stack trace,
  // which the source map maps back.)
  const declared = new Set(
    Object.keys(result.metafile.inputs)
      .filter((input) => !input.startsWith(`${LAZY_NAMESPACE}:`))
      .flatMap((input) => topLevelClasses(read(input))),
  );
  const outputs = Object.keys(result.metafile.outputs);
  const staged = outputs.filter((output) => output.endsWith('.js'));
  for (const output of outputs) linkLazyModules(join(packageDir, output), join(packageDir, staging), lazy);
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

const LAZY_NAMESPACE = 'lazy-module';
// What a stand-in requires until the build knows which file the stand-in ended up in (see linkLazyModules).
const LAZY_PATH_MARK = '@@lazy-module@@/';
/**
 * @typedef {object} LazyModule
 * @property {string} key the absolute path of the module's source, or the package's name
 * @property {string} load what the stand-in requires: a path to link (LAZY_PATH_MARK + out) or a package name
 * @property {string | undefined} source a module of the package: its source, relative to the package (`src/x.ts`)…
 * @property {string | undefined} out …and its bundle, relative to dist/ (`chunks/x.js`)
 * @property {readonly string[]} exports the names the stand-in forwards, each a function
 */

/** @param {unknown} value */
const isPlainFunction = (value) =>
  typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value));

/**
 * The lazy modules of a package with what each exports. A module of the package (`src/x.ts`) is first
 * bundled alone and evaluated from `staging` (a module meant to load on first use does nothing on load
 * worth the name), so that an export that is not a function fails the build instead of the first call. A
 * dependency (its package name) is imported as built: its functions are forwarded, and importing anything
 * else from it fails the build (the stand-in has no such export).
 * @param {string} packageDir
 * @param {string} name
 * @param {readonly string[]} specifiers
 * @param {string} staging
 * @returns {Promise<Map<string, LazyModule>>}
 */
async function lazyModules(packageDir, name, specifiers, staging) {
  /** @type {Map<string, LazyModule>} */
  const modules = new Map();
  for (const specifier of specifiers) {
    if (!specifier.startsWith('src/')) {
      const path = createRequire(join(packageDir, 'package.json')).resolve(specifier);
      /** @type {Record<string, unknown>} */
      const exported = await import(pathToFileURL(path).href);
      const functions = Object.keys(exported).filter((key) => isPlainFunction(exported[key]));
      modules.set(specifier, {
        key: specifier,
        load: specifier,
        source: undefined,
        out: undefined,
        exports: functions,
      });
      continue;
    }
    const out = `chunks/${basename(specifier).replace(/\.ts$/, '.js')}`;
    if ([...modules.values()].some((module) => module.out === out)) {
      throw new Error(`${name}: two lazy modules would both be bundled as dist/${out}; rename one`);
    }
    const probe = join(staging, 'lazy-probe', out);
    const probed = await build({
      absWorkingDir: packageDir,
      entryPoints: [specifier],
      outfile: probe,
      ...commonOptions(packageDir),
      logLevel: 'silent',
    });
    await printWarnings(probed.warnings);
    /** @type {Record<string, unknown>} */
    const exported = await import(pathToFileURL(join(packageDir, probe)).href);
    const notFunctions = Object.keys(exported).filter((key) => !isPlainFunction(exported[key]));
    if (notFunctions.length > 0) {
      throw new Error(
        `${name}: the lazy module ${specifier} exports ${notFunctions.join(', ')}, which are not functions; a stand-in can only forward calls`,
      );
    }
    const key = join(packageDir, specifier);
    modules.set(key, { key, load: LAZY_PATH_MARK + out, source: specifier, out, exports: Object.keys(exported) });
  }
  return modules;
}

/**
 * Gives every import of a lazy module (other than its own entry) or lazy dependency the stand-in instead.
 * @param {Map<string, LazyModule>} lazy
 * @returns {import('esbuild').Plugin}
 */
function lazyModulePlugin(lazy) {
  const probing = Symbol('resolving for the lazy-module plugin');
  const packages = [...lazy.values()].filter((module) => module.source === undefined).map((module) => module.key);
  return {
    name: 'lazy-modules',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === probing) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: probing,
        });
        if (resolved.errors.length > 0 || !lazy.has(resolved.path)) return undefined;
        return { path: resolved.path, namespace: LAZY_NAMESPACE };
      });
      if (packages.length > 0) {
        const names = packages.map((specifier) => specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
        build.onResolve({ filter: new RegExp(`^(?:${names})$`) }, (args) =>
          args.kind === 'import-statement' ? { path: args.path, namespace: LAZY_NAMESPACE } : undefined,
        );
      }
      build.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => {
        const module = lazy.get(args.path);
        if (module === undefined) return undefined;
        return { contents: standIn(module), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * The stand-in of a lazy module: one function per export, loading the module on the first call.
 * @param {LazyModule} module
 * @returns {string}
 */
function standIn(module) {
  const forwarders = module.exports.map(
    (name) => `export function ${name}(...args) {\n  return load().${name}(...args);\n}\n`,
  );
  return [
    'import { createRequire } from "node:module";',
    'let loaded;',
    `const load = () => loaded ??= createRequire(import.meta.url)(${JSON.stringify(module.load)});`,
    ...forwarders,
  ].join('\n');
}

/**
 * Points each stand-in in one bundled file at its module, relative to that file.
 * @param {string} file
 * @param {string} outdir
 * @param {Map<string, LazyModule>} lazy
 */
function linkLazyModules(file, outdir, lazy) {
  if (file.endsWith('.js.map')) {
    // esbuild names a stand-in's source by its namespace and path: a module's stand-in is mapped to that
    // module's source, relative as every other source, a dependency's keeps `lazy-module:<name>` (no path
    // of the machine that built it goes into a published map).
    const map = JSON.parse(readFileSync(file, 'utf8'));
    const prefix = `${LAZY_NAMESPACE}:`;
    if (!map.sources.some((/** @type {string} */ source) => source.startsWith(prefix))) return;
    map.sources = map.sources.map((/** @type {string} */ source) => {
      const path = source.slice(prefix.length);
      if (!source.startsWith(prefix) || lazy.get(path)?.source === undefined) return source;
      return relative(dirname(file), path).split(sep).join('/');
    });
    writeFileSync(file, JSON.stringify(map));
    return;
  }
  if (!file.endsWith('.js')) return;
  const code = readFileSync(file, 'utf8');
  if (!code.includes(LAZY_PATH_MARK)) return;
  let linked = code;
  for (const module of lazy.values()) {
    if (module.out === undefined) continue;
    let path = relative(dirname(file), join(outdir, module.out)).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    linked = linked.replaceAll(JSON.stringify(module.load), JSON.stringify(path));
  }
  writeFileSync(file, linked);
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
  const lazy = process.argv.slice(2).flatMap((arg) => (arg.startsWith('--lazy=') ? [arg.slice('--lazy='.length)] : []));
  await bundlePackage(process.cwd(), { lazy });
}
