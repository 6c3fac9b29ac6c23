// Checks the TypeScript blocks of the documentation (docs/*.md, docs/guides/*.md) the way a reader uses them:
//
//   node docs/check-code-blocks.mjs       (`pnpm docs:check`; a test runs it; needs `pnpm build`)
//
// - every ```ts block is type-checked, as its own module, under the project's strict settings against the
//   built packages (this folder is a workspace package that depends on all of them). Names a block uses
//   without defining them (`model`, `catalogue`, `session`…: the things every guide takes as given) are
//   declared, with their real types, in prelude.d.ts;
// - a ```ts run block is complete and offline: it is also run with Node, and must exit 0;
// - a ```ts fragment block is a sketch with elisions (`/* … */`) and is not checked; use it sparingly.
// Exit 1 with each problem located as <file.md>:<line>.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const blocksDir = join(here, '.blocks');
const require = createRequire(join(root, 'package.json'));
const ts = require('typescript');

/** Markdown files whose blocks are checked, relative to the repository root. */
export function documentationFiles() {
  const guides = readdirSync(join(here, 'guides')).filter((name) => name.endsWith('.md'));
  return ['docs/index.md', ...guides.map((name) => `docs/guides/${name}`)];
}

/** The ```ts blocks of a markdown text: kind (check, run, fragment), 1-based line of the first code line, code. */
export function codeBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```ts(?: (run|fragment))?\s*$/.exec(lines[index] ?? '');
    if (open === null) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end += 1;
    blocks.push({ kind: open[1] ?? 'check', line: start + 1, code: lines.slice(start, end).join('\n') });
    index = end;
  }
  return blocks;
}

function main() {
  rmSync(blocksDir, { recursive: true, force: true });
  mkdirSync(blocksDir, { recursive: true });
  cpSync(join(here, 'prelude.d.ts'), join(blocksDir, 'prelude.d.ts'));
  /** generated file name → { md, line } */
  const origins = new Map();
  const runnable = [];
  let checked = 0;
  let fragments = 0;
  for (const md of documentationFiles()) {
    const stem = md
      .replace(/^docs\//, '')
      .replace(/\.md$/, '')
      .replaceAll('/', '-');
    codeBlocks(readFileSync(join(root, md), 'utf8')).forEach((block, index) => {
      if (block.kind === 'fragment') {
        fragments += 1;
        return;
      }
      const name = `${stem}-${index + 1}.ts`;
      // `export {}` makes every block a module: its names stay its own, and top-level await is allowed.
      writeFileSync(join(blocksDir, name), `${block.code}\nexport {};\n`);
      origins.set(name, { md, line: block.line });
      checked += 1;
      if (block.kind === 'run') runnable.push({ name, md, line: block.line, code: block.code });
    });
  }
  writeFileSync(
    join(blocksDir, 'tsconfig.json'),
    `${JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }, null, 2)}\n`,
  );

  const problems = [];
  const tsc = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', join(blocksDir, 'tsconfig.json')],
    {
      cwd: here,
      encoding: 'utf8',
    },
  );
  for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n')) {
    const match = /^(?:.*[/\\])?\.blocks[/\\]([^(]+)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (match === null) {
      if (line.trim() !== '' && !/^\s/.test(line)) problems.push(line.trim());
      continue;
    }
    const [, file = '', row = '0', , message = ''] = match;
    const origin = origins.get(file);
    problems.push(
      origin === undefined ? `${file}:${row}: ${message}` : `${origin.md}:${origin.line + Number(row) - 1}: ${message}`,
    );
  }

  for (const block of runnable) {
    const js = ts.transpileModule(block.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    }).outputText;
    const file = join(blocksDir, block.name.replace(/\.ts$/, '.mjs'));
    writeFileSync(file, js);
    try {
      execFileSync(process.execPath, [file], {
        cwd: here,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
    } catch (error) {
      problems.push(
        `${block.md}:${block.line}: the block failed when run: ${String(error.stderr || error.message).trim()}`,
      );
    }
  }

  console.log(
    `docs: ${checked} TypeScript block(s) type-checked, ${runnable.length} run, ${fragments} fragment(s) not checked, in ${documentationFiles().length} files`,
  );
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
