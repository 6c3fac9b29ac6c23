import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli-io.js';
import type { Command } from '../src/command.js';
import { COMMANDS, loadCommands } from '../src/commands/registry.js';
import { ExitCode } from '../src/exit-codes.js';
import { runCli } from '../src/run-cli.js';
import { runBin } from './support/cli-process.js';

describe('toolcircuit (built binary)', () => {
  it('--help lists every command and the exit codes', async () => {
    const { code, stdout } = await runBin(['--help']);
    expect(code).toBe(0);
    for (const name of ['demo', 'run', 'lint', 'convert', 'record', 'replay'])
      expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(stdout).toContain('Exit codes (all commands):');
    expect(stdout).toMatch(/^ {2}3 +run paused/m);
  });

  it('no command: the help on stderr, exit 2; --version prints the package version', async () => {
    const none = await runBin([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: toolcircuit <command>');
    const version = await runBin(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('an unknown command suggests the close ones (exit 2)', async () => {
    const { code, stderr } = await runBin(['lnt']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "lnt"');
    expect(stderr).toContain('Did you mean lint?');
  });

  it.each(['demo', 'run', 'lint', 'convert', 'record', 'replay'])(
    '%s --help shows usage, options and exit codes',
    async (name) => {
      const { code, stdout } = await runBin([name, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: toolcircuit ${name}`);
      expect(stdout).toContain('Options:');
      expect(stdout).toContain('Exit codes:');
      expect(stdout).toMatch(/^ {2}2 +/m);
    },
  );
});

function memoryIo(env: Record<string, string> = {}): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const stdin = new PassThrough();
  stdin.end();
  return {
    io: {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      stdin,
      env,
      cwd: process.cwd(),
      signal: new AbortController().signal,
    },
    out: () => out,
    err: () => err,
  };
}

describe('the command registry', () => {
  it('names are unique, every command documents exit code 2, and the registry says what the command says', async () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    const commands = await loadCommands();
    for (const command of commands) expect(command.exitCodes.map(([code]) => code)).toContain(ExitCode.usage);
    // --help prints the registry's name and summary without loading the module: they must not drift apart.
    expect(commands.map(({ name, summary }) => ({ name, summary }))).toEqual(
      COMMANDS.map(({ name, summary }) => ({ name, summary })),
    );
  });

  it('a command with a verb ("cases export") is one object in the list, found by its longest name', async () => {
    const seen: string[][] = [];
    const verify: Command = {
      name: 'cases export',
      summary: 'Export cases.',
      usage: 'toolcircuit cases export <file>',
      description: '',
      options: { strict: { type: 'boolean', description: 'fail on warnings' } },
      exitCodes: [
        [0, 'ok'],
        [2, 'usage'],
      ],
      async run(args) {
        seen.push([...args.positionals, String(args.flag('strict'))]);
        return 0;
      },
    };
    const { io, out, err } = memoryIo();
    expect(await runCli(['cases', 'export', 'log.jsonl', '--strict'], io, [...COMMANDS, verify])).toBe(0);
    expect(err()).toBe('');
    expect(seen).toEqual([['log.jsonl', 'true']]);
    expect(await runCli(['--help'], io, [...COMMANDS, verify])).toBe(0);
    expect(out()).toMatch(/^ {2}cases export +Export cases\.$/m);
  });

  it('maps errors to exit codes: configuration 2, provider 4, anything else 70; keys never printed', async () => {
    const failing = (error: unknown): Command => ({
      name: 'fail',
      summary: '',
      usage: '',
      description: '',
      options: {},
      exitCodes: [[2, 'usage']],
      run: () => Promise.reject(error),
    });
    const secret = 'sk-test-in-an-error-0123456789';
    const configuration = Object.assign(new Error(`bad config near ${secret}`), { kind: 'configuration' });
    const provider = Object.assign(new Error('rate limited'), { kind: 'provider' });
    const env = { OPENAI_API_KEY: secret };
    const first = memoryIo(env);
    expect(await runCli(['fail'], first.io, [failing(configuration)])).toBe(2);
    expect(first.err()).toContain('bad config near [redacted]');
    const second = memoryIo(env);
    expect(await runCli(['fail'], second.io, [failing(provider)])).toBe(4);
    expect(second.err()).toContain('provider error: rate limited');
    const third = memoryIo(env);
    expect(await runCli(['fail'], third.io, [failing(new TypeError('oops'))])).toBe(70);
    expect(third.err()).toContain('internal error: TypeError: oops');
  });
});
