// What stopped or slowed a first-time user of the CLI: each one pinned against the built binary.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInvocation } from '../src/demo/cli-invocation.js';
import { runBin } from './support/cli-process.js';

const work = mkdtempSync(join(tmpdir(), 'toolcircuit-papercuts-'));
function toolsFile(name: string, tools: unknown[]): string {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(tools));
  return file;
}
const tool = (name: string, inputSchema: unknown, description = `Do ${name}. Not for anything else.`) => ({
  name,
  description,
  inputSchema,
});

describe('command groups list their subcommands', () => {
  it.each([
    ['journal', ['journal verify', 'journal anchor']],
    ['trace', ['trace open', 'trace serve']],
    ['mcp', ['mcp import', 'mcp serve']],
  ])('%s --help: the subcommands, exit 0', async (group, subcommands) => {
    const { code, stdout } = await runBin([group, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: toolcircuit ${group} <subcommand>`);
    for (const name of subcommands) expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
  });

  it('a group without a subcommand, or with an unknown one, says so and lists them (exit 2)', async () => {
    const bare = await runBin(['journal']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('toolcircuit journal needs a subcommand');
    expect(bare.stderr).toMatch(/^ {2}journal verify /m);
    const typo = await runBin(['trace', 'opne']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('toolcircuit trace has no subcommand "opne"');
  });
});

describe('missing files are named first', () => {
  it('replay: no such file, not a count of cassettes', async () => {
    const { code, stderr } = await runBin(['replay', 'missing.json'], { cwd: work });
    expect(code).toBe(2);
    expect(stderr).toContain('no such file: missing.json');
    expect(stderr).not.toContain('cassette(s)');
  });

  it('run: the missing module before the missing API key', async () => {
    const { code, stderr } = await runBin(['run', 'missing.mjs', 'hello', '--model', 'anthropic:claude-haiku-5-5'], {
      cwd: work,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('no such file: missing.mjs');
    expect(stderr).not.toContain('ANTHROPIC_API_KEY');
  });
});

describe('convert refuses what core refuses, like lint', () => {
  const file = toolsFile('refused.json', [
    tool('good', { type: 'object', properties: { q: { type: 'string', description: 'q' } } }),
    tool('bad_pattern', { type: 'object', properties: { q: { type: 'string', pattern: '(' } } }),
    tool('good', { type: 'object', properties: {} }),
  ]);

  it('exit 1, each refused tool named with core’s reason and left out', async () => {
    const lint = await runBin(['lint', file, '--format', 'json']);
    expect(lint.code).toBe(1);
    const { code, stdout } = await runBin(['convert', file, '--provider', 'anthropic', '--json']);
    expect(code).toBe(1);
    const converted = JSON.parse(stdout) as { tools: { name: string }[]; refused: { tool: string; message: string }[] };
    expect(converted.tools.map((sent) => sent.name)).toEqual(['good']);
    expect(converted.refused.map((refusal) => refusal.tool)).toEqual(['bad_pattern', 'good']);
    expect(converted.refused[0]?.message).toMatch(/pattern/);
    expect(converted.refused[1]?.message).toMatch(/duplicate name/);
  });
});

describe('lint', () => {
  it('flags a required property that additionalProperties: false makes impossible', async () => {
    const file = toolsFile('impossible.json', [
      tool('closed', {
        type: 'object',
        properties: { a: { type: 'string', description: 'a' } },
        required: ['a', 'b'],
        additionalProperties: false,
      }),
      tool('patterned', {
        type: 'object',
        properties: {},
        patternProperties: { '^x-': { type: 'string' } },
        required: ['x-id'],
        additionalProperties: false,
      }),
    ]);
    const { code, stdout } = await runBin(['lint', file, '--format', 'json']);
    expect(code).toBe(1);
    const findings = (
      JSON.parse(stdout) as { files: { findings: { rule: string; tool: string; level: string }[] }[] }
    ).files[0]?.findings.filter((finding) => finding.rule === 'impossible-required');
    expect(findings).toEqual([expect.objectContaining({ tool: 'closed', level: 'error' })]);
  });

  it('folds identical notes about several tools into one line with a count', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const file = toolsFile(
      'notes.json',
      names.map((name) =>
        tool(name, { type: 'object', properties: {}, additionalProperties: false }, `Returns the ${name}.`),
      ),
    );
    const { stdout } = await runBin(['lint', file, '--provider', 'anthropic']);
    const lines = stdout.split('\n').filter((line) => line.startsWith('  note     no-out-of-scope'));
    expect(lines).toEqual([
      expect.stringContaining('5 tools (alpha, beta, gamma and 2 more): the description never says'),
    ]);
    expect(stdout).toContain('by rule: no-out-of-scope 5'); // the counts still count each tool
  });
});

describe('hints are typed the way this CLI is run', () => {
  it('pnpm exec toolcircuit in a clone (apps/cli beside pnpm-workspace.yaml), toolcircuit when installed', () => {
    const clone = join(work, 'clone');
    mkdirSync(join(clone, 'apps', 'cli'), { recursive: true });
    writeFileSync(join(clone, 'pnpm-workspace.yaml'), 'packages: [apps/*]\n');
    expect(cliInvocation(join(clone, 'apps', 'cli'))).toBe('pnpm exec toolcircuit');
    const installed = join(work, 'project', 'node_modules', '@toolcircuit', 'cli');
    mkdirSync(installed, { recursive: true });
    expect(cliInvocation(installed)).toBe('toolcircuit');
    expect(cliInvocation(join(work, 'elsewhere', 'apps', 'cli'))).toBe('toolcircuit');
  });
});
