import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What a newcomer reads and sees in the first hour: an install route that works today, commands that say
// what their noise is, no unscoped `npx toolcircuit` (whoever registers that name would be run).
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const section = (title: string) => {
  const start = readme.indexOf(`## ${title}`);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
};

describe('the first hour', () => {
  it('Install says the packages are not in the registry, gives the clone route, keeps the registry lines for later', () => {
    const install = section('Install');
    expect(install).toMatch(/not published to the npm registry yet/);
    expect(install).toContain('pnpm pack:public');
    expect(install).toMatch(/npm install \$T\/toolcircuit-core-0\.1\.0\.tgz/);
    expect(install).toMatch(/# not yet: for when the packages are in the npm registry\nnpm install @toolcircuit\/core/);
    expect(install).toContain('npx @toolcircuit/cli --help');
  });

  it('no document runs the unscoped `npx toolcircuit`', () => {
    const docs = ['README.md', 'SECURITY.md', 'examples/README.md', 'docs'].flatMap((path) =>
      path === 'docs' ? markdownUnder('docs') : [path],
    );
    for (const group of ['packages', 'apps']) {
      for (const dir of readdirSync(join(root, group))) docs.push(`${group}/${dir}/README.md`);
    }
    const offenders = docs.filter((path) => {
      try {
        return /npx (--\S+ )*toolcircuit\b(?!\/)/.test(read(path));
      } catch {
        return false; // a package without a README
      }
    });
    expect(offenders).toEqual([]);
  });

  it("command 1's noise is switched off where it can be and explained in one place where it cannot", () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const [name, script] of Object.entries(scripts)) {
      const turboRuns = script.match(/(?:^|&& )(?:\S+=\S+ )*turbo run/g) ?? [];
      for (const run of turboRuns) expect(run, `script "${name}"`).toContain('TURBO_TELEMETRY_DISABLED=1');
    }
    expect(read('scripts/test.sh')).toMatch(/^export TURBO_TELEMETRY_DISABLED=1$/m);
    expect(read('pnpm-workspace.yaml')).toMatch(/^updateNotifier: false$/m);
    const quickStart = section('Quick start');
    expect(quickStart).toMatch(/npm_config_nodedir=\/usr` points/);
    expect(quickStart).toMatch(/install scripts were not\s+allowed to run/);
  });

  it('says how long the tests take, that they need Chromium, and that better-sqlite3 may compile from source', () => {
    const quickStart = section('Quick start');
    expect(quickStart).toMatch(/`pnpm test` takes \d+ to \d+ minutes/);
    expect(quickStart).toContain('/usr/bin/chromium');
    expect(section('Install')).toMatch(/better-sqlite3[\s\S]*compiles from source, which\s+takes minutes/);
    expect(read('packages/stores/README.md')).toMatch(/compiles it from source/);
  });

  it('SECURITY.md says how to report a vulnerability, privately, without an invented address', () => {
    const security = read('SECURITY.md');
    const reporting = security.slice(security.indexOf('## Reporting a vulnerability'));
    expect(reporting).toMatch(/^## Reporting a vulnerability\n\nReport it privately to the maintainers/);
    const section = reporting.slice(0, reporting.indexOf('\n## ', 1));
    expect(section).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+|https?:\/\//); // no e-mail, no URL: none is known yet
  });

  it('BENCHMARKS.md opens with a one-glance table that matches the full goal table beside it', () => {
    const benchmarks = read('BENCHMARKS.md');
    expect(benchmarks.split('\n').length).toBeLessThan(80);
    expect(benchmarks).toMatch(/## At a glance\n\n<!-- summary:[^\n]*-->\n\d+ of \d+ goals pass/);
    const summaryRows = benchmarks.split('\n').filter((line) => /\| (pass|\*\*FAIL\*\*) \|$/.test(line));
    const goalTable = read('benchmarks/goal-table.md').split('\n');
    const tableStart = goalTable.findIndex((line) => line.startsWith('| path'));
    const tableEnd = goalTable.findIndex((line, index) => index > tableStart && !line.startsWith('|'));
    const fullRows = goalTable.slice(tableStart + 2, tableEnd);
    expect(summaryRows.length).toBe(fullRows.length);
    for (const row of summaryRows) expect(row.length, row).toBeLessThan(240);
    const check = spawnSync(process.execPath, ['scripts/benchmarks-summary.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('the README names everySession, the explicit way to open a tool to every session', () => {
    expect(readme).toMatch(/right: everySession/);
  });
});

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join(dir, path));
}
