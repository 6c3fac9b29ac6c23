#!/usr/bin/env node
// Installs toolcircuit the way an outside project does, and runs the README's example there, offline.
//
//   node scripts/pack-smoke.mjs        (after `pnpm build`; CI runs it from .ci/run)
//
// 1. Packs every public package as `pnpm pack:public` does (`pnpm pack` turns workspace:* into versions);
//    the private packages must not be packable, and every tarball must carry its LICENSE and dist.
// 2. An empty project installs, with npm, the tarballs the README's Install section names (core, config,
//    anthropic); the provider SDK comes as a peer dependency. Nothing else may come along: no other SDK, no
//    database driver, no archived Gemini SDK.
// 3. A second empty project installs the CLI tarball (with the @toolcircuit packages it needs, from their
//    tarballs too), writes the example's cassette with @toolcircuit/testing's scriptedCassette and serves it with
//    `toolcircuit replay --port 0 --exit-when-done` on 127.0.0.1.
// 4. The README's twenty-line example, copied from README.md as it is, runs against that server as ESM
//    (`example.mjs`) and as CommonJS through `require` (`example.cjs`); both must print the answer, and
//    stderr must stay empty (no deprecation, no experimental warning). The replay must serve every interaction.
// 4a. The README's no-key variant (examples/twenty-lines/offline.mjs) runs there too, once the testing
//     tarball is added: a scripted provider, the real adapter and SDK, no key.
// 4b. A third empty project installs @toolcircuit/dbos: DBOS Transact comes as its peer, and the package imports.
// 5. The optional pieces fail clearly: opening a SQLite or PostgreSQL store without its driver, and the
//    archived Gemini SDK without its package, throw typed configuration errors naming `npm install …`.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPublic, workspacePackages } from './pack-public.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'toolcircuit-pack-'));
const keep = process.argv.includes('--keep');
let failures = 0;

function step(title) {
  console.log(`\n▸ ${title}`);
}
function check(ok, what) {
  console.log(`  ${ok ? '✓' : '✗'} ${what}`);
  if (!ok) failures += 1;
}
function run(command, args, cwd, env = {}) {
  return execFileSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
function runCapture(command, args, cwd, env = {}) {
  try {
    const stdout = execFileSync(command, args, {
      cwd,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    return { code: error.status ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' };
  }
}

// ── 1. pack ──────────────────────────────────────────────────────────────────────────────────────────────
step('pack every public package');
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const packed = new Map();
/** Each public package's own @toolcircuit/* dependencies (dependencies and peers), read before packing. */
const internalDeps = new Map();
for (const { manifest, dir } of workspacePackages()) {
  if (manifest.private !== true) continue;
  // `private` stops a publish; its prepack script stops a pack too (`pnpm -r pack` included).
  const attempt = runCapture('pnpm', ['pack', '--pack-destination', join(work, 'refused')], join(root, dir));
  check(attempt.code !== 0 && !existsSync(join(work, 'refused')), `${manifest.name} is private: packing it fails`);
}
// The same packing as `pnpm pack:public` (scripts/pack-public.mjs), which skips the private packages.
for (const { name, manifest, tarball: file } of packPublic(tarballs)) {
  const listing = run('tar', ['-tzf', file], work).split('\n');
  check(
    listing.includes('package/LICENSE') && listing.some((path) => path.startsWith('package/dist/')),
    `${name} → ${basename(file)} (${listing.length - 1} files, LICENSE and dist included)`,
  );
  check(!listing.some((path) => /\.test\.ts$/.test(path)), `${name}: no test files in the tarball`);
  const packedManifest = JSON.parse(run('tar', ['-xzOf', file, 'package/package.json'], work));
  const workspaceRanges = JSON.stringify(packedManifest).includes('workspace:');
  check(!workspaceRanges, `${name}: no workspace: ranges left in the packed package.json`);
  packed.set(name, file);
  internalDeps.set(
    name,
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((dep) =>
      dep.startsWith('@toolcircuit/'),
    ),
  );
}
/** A package and every @toolcircuit/* package it needs, transitively: what npm would fetch from the registry. */
function withInternalDeps(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of internalDeps.get(name) ?? []) withInternalDeps(dep, seen);
  return seen;
}
const tarball = (name) => {
  const file = packed.get(name);
  if (file === undefined) throw new Error(`${name} was not packed`);
  return file;
};

// ── 2. the README's install, in an empty project ─────────────────────────────────────────────────────────
step('npm install the README packages into an empty project');
const app = join(work, 'app');
mkdirSync(app);
writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'outside-app', private: true }, null, 2)}\n`);
const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error'];
// @toolcircuit/schema is a dependency of the adapter; from the registry npm would fetch it by itself.
run(
  'npm',
  ['install', ...npmFlags, ...['core', 'schema', 'config', 'anthropic'].map((name) => tarball(`@toolcircuit/${name}`))],
  app,
);
const installed = (project, name) => existsSync(join(project, 'node_modules', ...name.split('/'), 'package.json'));
check(installed(app, '@anthropic-ai/sdk'), 'the Anthropic SDK came in as the adapter’s peer dependency');
for (const absent of ['openai', '@google/genai', '@google/generative-ai', 'better-sqlite3', 'pg']) {
  check(!installed(app, absent), `${absent} was not installed`);
}

// ── 3. the CLI, in another empty project, serving the example's cassette ─────────────────────────────────
step('npm install the CLI and serve a cassette with `toolcircuit replay`');
const tool = join(work, 'tool');
mkdirSync(tool);
writeFileSync(join(tool, 'package.json'), `${JSON.stringify({ name: 'outside-tool', private: true }, null, 2)}\n`);
run(
  'npm',
  [
    'install',
    ...npmFlags,
    // The CLI and every @toolcircuit package it needs, transitively, from their tarballs (a package the CLI
    // comes to depend on is covered the day it is added; one it does not need, such as the DBOS package with
    // its SDK peer and that SDK's pg, stays out, as for a user installing the CLI).
    ...[...withInternalDeps('@toolcircuit/cli')].map(tarball),
  ],
  tool,
);
for (const absent of ['better-sqlite3', 'pg', '@google/generative-ai']) {
  check(!installed(tool, absent), `the CLI did not pull in the optional ${absent}`);
}
const help = runCapture('npx', ['--no-install', '@toolcircuit/cli', '--help'], tool);
check(help.code === 0 && /toolcircuit/.test(help.stdout), '`npx @toolcircuit/cli --help` runs');
// The example's conversation as a cassette, written by the published @toolcircuit/testing (the CLI's
// dependency) from the same turns as the README's no-key variant: nothing outside the packages is needed.
const written = runCapture(
  'node',
  [
    '--input-type=module',
    '-e',
    "import { writeFileSync } from 'node:fs';" +
      "import { scriptedCassette, textTurn, toolCallsTurn } from '@toolcircuit/testing';" +
      "const cassette = scriptedCassette('anthropic-messages', [" +
      "toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }])," +
      "textTurn('Le dossier A-1234 est ouvert.')], { model: 'claude-sonnet-5-5' });" +
      "writeFileSync('readme-example.json', JSON.stringify(cassette));",
  ],
  tool,
);
check(
  written.code === 0,
  `scriptedCassette wrote the example's cassette${written.stderr === '' ? '' : `: ${written.stderr}`}`,
);

/** Starts `toolcircuit replay`, resolves with its base URL and a promise of how it ended. */
function startReplay() {
  const child = spawn(
    'npx',
    ['--no-install', '@toolcircuit/cli', 'replay', 'readme-example.json', '--port', '0', '--exit-when-done'],
    {
      cwd: tool,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  const ended = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const found = /^url: (\S+)$/m.exec(stdout);
      if (found) resolve(found[1]);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', () => reject(new Error(`replay ended before printing its URL:\n${stdout}\n${stderr}`)));
  });
  return { url, ended, child };
}

// ── 4. the README's example, ESM and CommonJS ────────────────────────────────────────────────────────────
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## In twenty lines'));
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
if (example === undefined) throw new Error('README.md: no ```ts block under "## In twenty lines"');
writeFileSync(join(app, 'example.mjs'), example);
writeFileSync(join(app, 'example.cjs'), toCommonJs(example));

/** `import { a, b } from 'x';` → `const { a, b } = require('x');`, the rest inside an async function. */
function toCommonJs(source) {
  const requires = [];
  const body = source.replace(/^import \{([^}]+)\} from '([^']+)';\n/gm, (_line, names, from) => {
    requires.push(`const {${names}} = require('${from}');`);
    return '';
  });
  return `'use strict';\n${requires.join('\n')}\n(async () => {\n${body}})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
}

for (const file of ['example.mjs', 'example.cjs']) {
  step(
    `node ${file} (the README example, ${file.endsWith('.mjs') ? 'ESM' : 'CommonJS via require'}) against the replay`,
  );
  const replay = startReplay();
  const url = await replay.url;
  // The example names anthropic:…; TOOLCIRCUIT_BASE_URL sends it to the local server instead (documented in
  // packages/config). The key is a placeholder: it only ever reaches 127.0.0.1.
  const result = runCapture('node', [file], app, {
    TOOLCIRCUIT_BASE_URL: url,
    ANTHROPIC_API_KEY: 'offline-placeholder',
    TOOLCIRCUIT_MODEL: '',
  });
  const served = await replay.ended;
  check(result.code === 0, `exit code 0 (got ${result.code})`);
  check(
    /^completed Le dossier A-1234 est ouvert\.$/m.test(result.stdout),
    `prints the answer: ${JSON.stringify(result.stdout.trim())}`,
  );
  check(
    result.stderr.trim() === '',
    `nothing on stderr${result.stderr.trim() === '' ? '' : `: ${result.stderr.trim()}`}`,
  );
  check(
    served.code === 0 && /served 2\/2 interaction\(s\), 0 mismatch/.test(served.stdout),
    'the replay served every interaction, no mismatch',
  );
}

// ── 4a. the README's no-key variant, whole (examples/twenty-lines/offline.mjs), with @toolcircuit/testing ──
step('node offline.mjs (the no-key variant: a scripted provider, the real adapter) in the same project');
run('npm', ['install', ...npmFlags, tarball('@toolcircuit/testing')], app);
cpSync(join(root, 'examples/twenty-lines/offline.mjs'), join(app, 'offline.mjs'));
const offlineRun = runCapture('node', ['offline.mjs'], app, { TOOLCIRCUIT_MODEL: '', ANTHROPIC_API_KEY: '' });
check(
  offlineRun.code === 0 && offlineRun.stdout === 'completed Le dossier A-1234 est ouvert.\n',
  `prints the answer with no key: ${JSON.stringify(offlineRun.stdout.trim() || offlineRun.stderr.trim())}`,
);
check(
  offlineRun.stderr.trim() === '',
  `nothing on stderr${offlineRun.stderr.trim() === '' ? '' : `: ${offlineRun.stderr.trim()}`}`,
);

// ── 4b. the DBOS package, in its own empty project: its SDK comes in as its peer ─────────────────────────
step('npm install @toolcircuit/dbos into an empty project and import it');
const durable = join(work, 'durable');
mkdirSync(durable);
writeFileSync(
  join(durable, 'package.json'),
  `${JSON.stringify({ name: 'outside-workers', private: true }, null, 2)}\n`,
);
run('npm', ['install', ...npmFlags, ...[...withInternalDeps('@toolcircuit/dbos')].map(tarball)], durable);
check(installed(durable, '@dbos-inc/dbos-sdk'), 'DBOS Transact came in as the package’s peer dependency');
const dbosImport = runCapture(
  'node',
  [
    '--input-type=module',
    '-e',
    "const m = await import('@toolcircuit/dbos'); console.log(typeof m.registerDbosCircuit, typeof m.createDbosRuns);",
  ],
  durable,
);
check(
  dbosImport.code === 0 && dbosImport.stdout.trim() === 'function function',
  `import('@toolcircuit/dbos') gives registerDbosCircuit and createDbosRuns: ${dbosImport.stdout.trim() || dbosImport.stderr.trim()}`,
);

// ── 5. optional pieces fail clearly ──────────────────────────────────────────────────────────────────────
step('optional dependencies, when missing, name what to install');
const probe = (code) => runCapture('node', ['--input-type=module', '-e', code], tool);
const sqlite = probe(
  "const { openSqliteStore } = await import('@toolcircuit/stores/sqlite');" +
    "try { await openSqliteStore({ file: 'x.sqlite' }); console.log('opened'); } catch (e) { console.log(e.constructor.name, e.kind, e.message); }",
);
check(
  /StoreDriverMissingError configuration .*npm install better-sqlite3/.test(sqlite.stdout),
  `SQLite: ${sqlite.stdout.trim() || sqlite.stderr.trim()}`,
);
const postgres = probe(
  "const { openPostgresStore } = await import('@toolcircuit/stores/postgres');" +
    "try { await openPostgresStore({ connectionString: 'postgres://127.0.0.1:1/x' }); console.log('opened'); } catch (e) { console.log(e.constructor.name, e.kind, e.message); }",
);
check(
  /StoreDriverMissingError configuration .*npm install pg/.test(postgres.stdout),
  `PostgreSQL: ${postgres.stdout.trim() || postgres.stderr.trim()}`,
);
const legacy = probe(
  "const { createGoogleModel } = await import('@toolcircuit/google');" +
    "try { createGoogleModel({ model: 'gemini-2.5-flash', sdk: 'generative-ai', apiKey: 'k' }); console.log('created'); } catch (e) { console.log(e.constructor.name, e.code, e.message); }",
);
check(
  /GoogleConfigurationError sdk_missing .*npm install @google\/generative-ai/.test(legacy.stdout),
  `Gemini legacy SDK: ${legacy.stdout.trim() || legacy.stderr.trim()}`,
);

if (!keep) rmSync(work, { recursive: true, force: true });
else console.log(`\nkept ${work}`);
console.log(failures === 0 ? '\npack smoke: all checks passed' : `\npack smoke: ${failures} check(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
