// Regenerates PORTABILITY.md from the tool-definition corpus in fixtures/catalogues
// (`pnpm --filter @toolcircuit/schema report`). The catalogue folder defaults to that copy;
// TOOLCIRCUIT_CATALOGUE_DIR points elsewhere.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// The report builder is not public API, so it is not in the published bundles: build it (with the node
// entry) from the sources into node_modules/.cache, where the package's dependencies resolve as from dist/.
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(packageRoot, 'node_modules/.cache/portability-report');
await build({
  absWorkingDir: packageRoot,
  entryPoints: { report: 'src/report/build-portability-report.ts', node: 'src/node.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  logLevel: 'warning',
});
const { loadCatalogueFile } = await import(pathToFileURL(join(outdir, 'node.mjs')).href);
const { buildPortabilityReport } = await import(pathToFileURL(join(outdir, 'report.mjs')).href);

// The corpus is copied into the repository: <repo>/fixtures/catalogues (see fixtures/README.md).
const directory =
  process.env.TOOLCIRCUIT_CATALOGUE_DIR ?? fileURLToPath(new URL('../../../fixtures/catalogues', import.meta.url));
const names = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
const files = [];
for (const name of names) files.push({ source: name, tools: await loadCatalogueFile(join(directory, name)) });
// The extra corpus recorded from npm MCP servers (test/fixtures/corpus-extra/SOURCES.md) is in the package.
const extra = fileURLToPath(new URL('../test/fixtures/corpus-extra/', import.meta.url));
for (const name of (await readdir(extra)).filter((item) => item.endsWith('.json')).sort())
  files.push({ source: `extra/${name}`, tools: await loadCatalogueFile(join(extra, name)) });
const output = fileURLToPath(new URL('../PORTABILITY.md', import.meta.url));
await writeFile(output, buildPortabilityReport(files));
console.log(
  `wrote ${output} (${files.reduce((sum, file) => sum + file.tools.length, 0)} tools, ${files.length} files)`,
);
