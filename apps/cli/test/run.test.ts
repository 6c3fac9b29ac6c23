import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cassette, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { type BinOptions, type BinResult, runBin, runBinOnTerminal } from './support/cli-process.js';
import { anthropicDemoAsSse, demoCassette } from './support/demo-cassettes.js';

const DEMO = 'dist/demo/demo-catalogue.js';
const KEY = 'sk-ant-cli-test-secret-0123456789';
const PROMPT = 'Cherche A-1234 et b-12, supprime puis clôture A-1234.';

async function withReplay<T>(cassette: Cassette, use: (server: ReplayServer) => Promise<T>): Promise<T> {
  const server = await startReplayServer(cassette);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Environment that selects the model and points it at the replay server: configuration only. */
function modelEnv(server: ReplayServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5',
    TOOLCIRCUIT_BASE_URL: server.url,
    ANTHROPIC_API_KEY: KEY,
    ...extra,
  };
}

function runDemoCatalogue(server: ReplayServer, args: readonly string[], options: BinOptions = {}): Promise<BinResult> {
  return runBin(['run', DEMO, PROMPT, '--no-stream', ...args], { ...options, env: modelEnv(server, options.env) });
}

describe('toolcircuit run', () => {
  it('shows each call with its checks, and pauses (exit 3) when nobody can confirm', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout, stderr } = await runDemoCatalogue(server, []);
      expect(stderr).toBe('');
      expect(code).toBe(3);
      expect(stdout).toContain('toolcircuit run: 3 tool(s) on anthropic:claude-haiku-5-5 at http://127.0.0.1');
      expect(stdout).toContain('chercher_dossier {"numero":"b-12"}  exists ✓ schema ✗ · refused by schema');
      expect(stdout).toContain(
        'supprimer_dossier {"numero":"A-1234"}  exists ✓ schema ✓ right ✗ · refused: missing right',
      );
      expect(stdout).toContain('end      paused · 2 turn(s) · 4 call(s): 1 executed, 2 refused');
      expect(stdout).toContain('nobody was asked because stdin is not a terminal');
      expect(server.remaining).toBe(1);
    });
  });

  it('--refuse-unconfirmed: the model is told instead, and the run completes', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout } = await runDemoCatalogue(server, ['--refuse-unconfirmed']);
      expect(code).toBe(0);
      expect(stdout).toContain(
        'cloturer_dossier {"numero":"A-1234","motif":"Demande du client"}  exists ✓ schema ✓ right ✓ confirmation ✗ · refused: not confirmed',
      );
      expect(stdout).toContain('end      completed · 3 turn(s) · 4 call(s): 1 executed, 3 refused');
      const lastBody = JSON.stringify(server.received.at(-1)?.body);
      expect(lastBody).toContain('is irreversible and runs only after the user has confirmed');
    });
  });

  it('on a terminal, asks before the irreversible call and runs it once approved', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout } = await runBinOnTerminal(['run', DEMO, PROMPT, '--no-stream'], 'y\n', {
        env: modelEnv(server),
      });
      expect(stdout).toContain('cloturer_dossier is irreversible and needs your confirmation (as camille.martin)');
      expect(stdout).toContain('Run it? [y/N]');
      expect(stdout).toContain('human  camille.martin approves cloturer_dossier');
      expect(stdout).toContain('confirmation ✓ · executed (after approval)');
      expect(stdout).toContain('end      completed · 3 turn(s) · 4 call(s): 2 executed, 2 refused');
      expect(code).toBe(0);
    });
  });

  it('on a terminal, anything but yes declines, and the model is told', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout } = await runBinOnTerminal(['run', DEMO, PROMPT, '--no-stream'], 'n\n', {
        env: modelEnv(server),
      });
      expect(stdout).toContain('human  camille.martin declines cloturer_dossier');
      expect(stdout).toContain('confirmation ✗ · refused: the human declined');
      expect(code).toBe(0);
      expect(JSON.stringify(server.received.at(-1)?.body)).toContain('The user declined to confirm this call');
    });
  });

  it('--json streams text deltas and emits machine events, with the prompt read from stdin', async () => {
    await withReplay(anthropicDemoAsSse(), async (server) => {
      const { code, stdout } = await runBin(['run', DEMO, '--json'], { env: modelEnv(server), input: `${PROMPT}\n` });
      expect(code).toBe(3);
      const events = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(events[0]).toMatchObject({
        type: 'start',
        model: expect.stringContaining('anthropic:claude-haiku-5-5'),
        tools: ['chercher_dossier', 'supprimer_dossier', 'cloturer_dossier'],
      });
      const deltas = events
        .filter((event) => event['type'] === 'text-delta' && event['turn'] === 1)
        .map((event) => event['text']);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('Je cherche les deux dossiers.');
      expect(
        events
          .filter((event) => event['type'] === 'call')
          .map((event) => [event['tool'], event['verdict'], event['reason'] ?? null]),
      ).toEqual(
        expect.arrayContaining([
          ['chercher_dossier', 'executed', null],
          ['chercher_dossier', 'refused', 'invalid_input'],
          ['supprimer_dossier', 'refused', 'missing_right'],
          ['cloturer_dossier', 'awaiting_confirmation', null],
        ]),
      );
      expect(events.find((event) => event['type'] === 'summary')).toMatchObject({
        status: 'paused',
        turns: 2,
        calls: 4,
        pending: 1,
        tokens: { input: 1067, output: 135 },
      });
      expect(JSON.stringify(server.received[0]?.body)).toContain(PROMPT);
    });
  });

  it('--right and --human build the session: without dossiers:close the close is refused for its right', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout } = await runDemoCatalogue(server, ['--right', 'dossiers:read', '--human', 'alice']);
      expect(code).toBe(0);
      expect(stdout).toContain('acting for alice, rights: dossiers:read');
      expect(stdout).toContain(
        'cloturer_dossier {"numero":"A-1234","motif":"Demande du client"}  exists ✓ schema ✓ right ✗ · refused: missing right',
      );
    });
  });

  it('--max-turns stops the run (exit 1) and says the model was not done', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const { code, stdout } = await runDemoCatalogue(server, ['--max-turns', '1']);
      expect(code).toBe(1);
      expect(stdout).toContain('stopped after 1 turn(s) (--max-turns)');
    });
  });

  it('a provider error exits 4, and the key it echoes is redacted', async () => {
    const unauthorized: Cassette = {
      format: 'toolcircuit-cassette/1',
      protocol: 'anthropic-messages',
      provenance: { kind: 'synthetic', note: 'Synthetic: a 401 that quotes the key, to check redaction.' },
      interactions: [
        {
          request: { method: 'POST', path: '/v1/messages' },
          response: {
            status: 401,
            headers: { 'content-type': 'application/json' },
            body: {
              kind: 'json',
              json: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${KEY}` } },
            },
          },
        },
      ],
    };
    await withReplay(unauthorized, async (server) => {
      const { code, stdout, stderr } = await runDemoCatalogue(server, []);
      expect(code).toBe(4);
      expect(stderr).toContain('provider error');
      expect(stderr).toContain('[redacted]');
      expect(stdout + stderr).not.toContain(KEY);
    });
  });
});

describe('toolcircuit run: input errors (exit 2)', () => {
  const env = { TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5', ANTHROPIC_API_KEY: KEY };

  it.each([
    { label: 'missing module', args: ['run', 'nope/missing.js', 'hi'], env, expected: 'no such file: nope/missing.js' },
    {
      label: 'module without a catalogue',
      args: ['run', 'test/fixtures/no-catalogue.mjs', 'hi'],
      env,
      expected: 'exports no catalogue',
    },
    { label: 'no prompt', args: ['run', DEMO], env, expected: 'no prompt given' },
    { label: 'no module', args: ['run'], env, expected: 'no catalogue module given' },
    {
      label: 'unknown provider',
      args: ['run', DEMO, 'hi', '--model', 'mistral:large'],
      env,
      expected:
        'unknown provider "mistral". Use one of: anthropic, openai, openai-responses, google, openai-compatible',
    },
    {
      label: 'not provider:model',
      args: ['run', DEMO, 'hi', '--model', 'gpt-5.2'],
      env,
      expected: 'is not "provider:model"',
    },
    {
      label: 'missing key',
      args: ['run', DEMO, 'hi', '--model', 'google:gemini-2.5-flash'],
      env,
      expected: 'Set GEMINI_API_KEY or GOOGLE_API_KEY in the environment',
    },
    { label: 'no model at all', args: ['run', DEMO, 'hi'], env: {}, expected: 'no model chosen' },
    {
      label: 'bad --max-turns',
      args: ['run', DEMO, 'hi', '--max-turns', 'zero'],
      env,
      expected: '--max-turns must be a whole number',
    },
    {
      label: 'missing --config',
      args: ['run', DEMO, 'hi', '--config', 'nope.json'],
      env,
      expected: 'config file nope.json does not exist',
    },
    { label: 'unknown flag', args: ['run', DEMO, 'hi', '--colour'], env, expected: "Unknown option '--colour'" },
  ])('$label', async ({ args, env: extra, expected }) => {
    const { code, stdout, stderr } = await runBin(args, { env: extra });
    expect(stderr).toContain(expected);
    expect(code).toBe(2);
    expect(stdout + stderr).not.toContain(KEY);
  });

  it('an invalid toolcircuit.config.json names every bad field; invalid JSON says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-cli-config-'));
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ model: { provider: 'anthropic', model: 'x', apiKey: 'k' }, maxTurns: 0 }));
    const invalid = await runBin(['run', DEMO, 'hi', '--config', bad], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('/maxTurns:');
    expect(invalid.stderr).toContain('keys are never read from config');
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ "model": ');
    const unparsable = await runBin(['run', DEMO, 'hi', '--config', broken], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(unparsable.code).toBe(2);
    expect(unparsable.stderr).toContain('not valid JSON');
  });

  it('reads the model and the catalogue from toolcircuit.config.json in the working directory', async () => {
    await withReplay(demoCassette('anthropic-messages'), async (server) => {
      const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-cli-config-'));
      const catalogue = join(process.cwd(), 'apps/cli', DEMO);
      await writeFile(
        join(dir, 'toolcircuit.config.json'),
        JSON.stringify({
          model: { provider: 'anthropic', model: 'claude-haiku-5-5', baseURL: server.url },
          catalogue,
          maxTurns: 1,
        }),
      );
      const { code, stdout } = await runBin(['run', '--prompt', PROMPT, '--no-stream'], {
        cwd: dir,
        env: { ANTHROPIC_API_KEY: KEY },
      });
      expect(stdout).toContain(`on anthropic:claude-haiku-5-5 at ${server.url}`);
      expect(code).toBe(1);
      expect(stdout).toContain('stopped after 1 turn(s)');
    });
  });
});
