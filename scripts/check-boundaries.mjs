// @ts-check
// The boundaries between the workspace's packages, checked over the import graph the TypeScript scanner
// reads from every source file (type-only imports included: a cycle through types is still a cycle for
// whoever reads the code). Run by `pnpm lint`; `node scripts/check-boundaries.mjs [root]` prints each
// violation and exits 1 when there is one.
//
// The rules are about roles, not about today's package list, so a new package is covered the day it lands:
// - every package: no import cycle among its own files; other packages only by name, never by a relative
//   path out of its folder; a subpath of a workspace package only when that package exports it;
// - `@toolcircuit/core` (the neutral circuit): no vendor SDK and no other `@toolcircuit` package;
// - an adapter (a package under packages/ that depends on a vendor SDK): only core, schema, node built-ins
//   and the vendor SDKs it declares;
// - an app (a package under apps/, e.g. the CLI and the bench) is a leaf: nothing imports it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const CORE = '@toolcircuit/core';
/** What an adapter may import besides node built-ins and the vendor SDKs it declares. */
export const ADAPTER_ALLOWED = ['@toolcircuit/core', '@toolcircuit/schema'];

/** Model providers' SDKs (and SDKs of other model frameworks): never in core; the mark of an adapter. */
const VENDOR_SDK = [
  /^@anthropic-ai\//,
  /^openai$/,
  /^@openai\//,
  /^@google\/(genai|generative-ai)$/,
  /^@google-cloud\/vertexai$/,
  /^@aws-sdk\/client-bedrock/,
  /^@azure\/openai$/,
  /^@mistralai\//,
  /^cohere-ai$/,
  /^groq-sdk$/,
  /^ollama$/,
  /^ai$/,
  /^@ai-sdk\//,
  /^langchain$/,
  /^@langchain\//,
];

export function isVendorSdk(name) {
  return VENDOR_SDK.some((pattern) => pattern.test(name));
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];
/** Inputs of the tests (catalogues to lint, recorded traffic), not the package's own code. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'fixtures', 'cassettes', 'coverage', '.turbo']);
const CHECKED_DIRS = ['src', 'test', 'scripts'];
const builtins = new Set(builtinModules);

/** The workspace's packages, from the `packages:` globs of pnpm-workspace.yaml (`dir/*` or `dir`). */
function workspacePackages(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\s*\n((?:\s+-\s*.+\n?)+)/m.exec(text)?.[1] ?? '';
  const globs = [...block.matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((match) => match[1]);
  const dirs = globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [join(root, glob)];
    const parent = join(root, glob.slice(0, -2));
    if (!existsSync(parent)) return [];
    return readdirSync(parent).map((name) => join(parent, name));
  });
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const dependencies = Object.keys({
        ...manifest.dependencies,
        ...manifest.peerDependencies,
        ...manifest.optionalDependencies,
      });
      const isApp = relative(root, dir).split(sep)[0] === 'apps';
      return {
        name: String(manifest.name),
        dir,
        exports: manifest.exports,
        dependencies,
        isApp,
        isAdapter: !isApp && manifest.name !== CORE && dependencies.some(isVendorSdk),
      };
    });
}

function sourceFiles(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(current, entry.name));
      } else if (SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
        if (!entry.name.endsWith('.d.ts')) files.push(join(current, entry.name));
      }
    }
  };
  for (const name of CHECKED_DIRS) if (existsSync(join(dir, name))) walk(join(dir, name));
  return files;
}

/** `./x.js` of TypeScript's ESM is `./x.ts` on disk; a folder is its index. */
function resolveRelative(fromFile, specifier) {
  const target = resolve(dirname(fromFile), specifier);
  const stem = target.replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [
    ...SOURCE_EXTENSIONS.map((extension) => stem + extension),
    target,
    ...SOURCE_EXTENSIONS.map((extension) => join(target, `index${extension}`)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? target;
}

function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || builtins.has(packageNameOf(specifier));
}

/** Whether `subpath` (`.` or `./x`) is an entry of an `exports` map. */
function exportsSubpath(exportsMap, subpath) {
  if (exportsMap === undefined) return subpath === '.';
  if (typeof exportsMap === 'string' || Array.isArray(exportsMap)) return subpath === '.';
  const keys = Object.keys(exportsMap);
  if (!keys.some((key) => key.startsWith('.'))) return subpath === '.';
  return keys.some((key) => {
    if (!key.includes('*')) return key === subpath;
    const [head, tail] = key.split('*');
    return subpath.startsWith(head) && subpath.endsWith(tail);
  });
}

/** Import cycles among `files`: one per strongly connected component (Tarjan), as a path that closes. */
function cyclesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = component.length === 1 && (graph.get(node) ?? new Set()).has(node);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => closedPath(graph, new Set(component)));
}

/** A shortest path from the component's first file (by name) back to itself, inside the component. */
function closedPath(graph, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let step = node; step !== null && step !== start; step = previous.get(step)) path.splice(1, 0, step);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * Every violation of the workspace at `root`, as `{ rule, file, message }` with `file` relative to `root`,
 * sorted; an empty array when the boundaries hold.
 */
export function checkBoundaries(root) {
  const packages = workspacePackages(root);
  const byName = new Map(packages.map((workspacePackage) => [workspacePackage.name, workspacePackage]));
  const violations = [];
  const report = (rule, file, message) => violations.push({ rule, file: relative(root, file), message });

  for (const workspacePackage of packages) {
    const graph = new Map();
    const inside = (file) => !relative(workspacePackage.dir, file).startsWith('..');
    for (const file of sourceFiles(workspacePackage.dir)) {
      const edges = new Set();
      graph.set(file, edges);
      // Core's and the adapters' rules are about what they ship; their tests may use test tools.
      const published = relative(workspacePackage.dir, file).startsWith(`src${sep}`);
      const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
      for (const { fileName: specifier } of imports) {
        if (specifier.startsWith('.') || specifier.startsWith('/')) {
          const target = resolveRelative(file, specifier);
          if (!inside(target)) {
            const owner = packages.find((other) => !relative(other.dir, target).startsWith('..'));
            const fix =
              owner === undefined
                ? 'import it by its package name'
                : owner.isApp
                  ? `${owner.name} is an application, nothing imports it (run its binary, or test it in its package)`
                  : `import '${owner.name}'`;
            report(
              'no-relative-import-across-packages',
              file,
              `'${specifier}' leaves ${workspacePackage.name}: ${fix}`,
            );
          } else if (SOURCE_EXTENSIONS.some((extension) => target.endsWith(extension))) {
            edges.add(target);
          }
          continue;
        }
        if (isBuiltin(specifier)) continue;
        const name = packageNameOf(specifier);
        const target = byName.get(name);
        if (target !== undefined && target !== workspacePackage) {
          const subpath = specifier === name ? '.' : `.${specifier.slice(name.length)}`;
          if (target.isApp) {
            report('no-import-of-app', file, `'${specifier}': ${name} is an application, nothing imports it`);
          } else if (!exportsSubpath(target.exports, subpath)) {
            report('no-deep-import', file, `'${specifier}': ${name} exports no '${subpath}'; import its public API`);
          }
        }
        if (!published) continue;
        if (workspacePackage.name === CORE) {
          if (name.startsWith('@toolcircuit/')) {
            report('core-is-neutral', file, `'${specifier}': core imports no other @toolcircuit package`);
          } else if (isVendorSdk(name)) {
            report('core-is-neutral', file, `'${specifier}': core imports no vendor SDK`);
          }
        } else if (workspacePackage.isAdapter) {
          const ownSdk = isVendorSdk(name) && workspacePackage.dependencies.includes(name);
          if (!ownSdk && !ADAPTER_ALLOWED.includes(name)) {
            report(
              'adapter-imports',
              file,
              `'${specifier}': an adapter imports only ${ADAPTER_ALLOWED.join(', ')}, node built-ins and its declared SDK`,
            );
          }
        }
      }
    }
    for (const cycle of cyclesOf(graph)) {
      const path = cycle.map((file) => relative(workspacePackage.dir, file)).join(' -> ');
      report('no-import-cycle', cycle[0], `${workspacePackage.name}: ${path}`);
    }
    for (const dependency of workspacePackage.dependencies) {
      if (byName.get(dependency)?.isApp === true) {
        report(
          'no-import-of-app',
          join(workspacePackage.dir, 'package.json'),
          `depends on the application ${dependency}`,
        );
      }
    }
  }
  return violations.sort((a, b) => a.file.localeCompare(b.file) || a.rule.localeCompare(b.rule));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkBoundaries(root);
  for (const { rule, file, message } of violations) console.error(`${rule}: ${file}: ${message}`);
  if (violations.length > 0) {
    console.error(
      `${violations.length} boundary violation(s); the rules are described in scripts/check-boundaries.mjs`,
    );
    process.exit(1);
  }
  console.log('boundaries: every package keeps its imports (no cycles, core neutral, adapters thin, apps leaves)');
}
