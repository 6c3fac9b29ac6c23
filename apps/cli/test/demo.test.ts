import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { runBin } from './support/cli-process.js';
import { anthropicDemoAsSse, DEMO_CASSETTES } from './support/demo-cassettes.js';

const BACKENDS = ['anthropic', 'openai-chat', 'openai-responses', 'gemini-genai', 'gemini-generative-ai'];

describe('toolcircuit demo (offline)', () => {
  it('drives every adapter and SDK through the same scenario, shows the trace once, and says they are identical', async () => {
    const { code, stdout, stderr } = await runBin(['demo']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('All 5 traces are identical.');
    for (const backend of BACKENDS) expect(stdout).toContain(`▸ ${backend}: `);
    const count = (text: string) => stdout.split(text).length - 1;
    // The trace once (the first backend's): the schema refusal, the missing right, the pause, the approval, the run.
    expect(count('chercher_dossier {"numero":"b-12"}  exists ✓ schema ✗ · refused by schema')).toBe(1);
    expect(count('supprimer_dossier {"numero":"A-1234"}  exists ✓ schema ✓ right ✗ · refused: missing right')).toBe(1);
    expect(count('confirmation … · paused for confirmation')).toBe(1);
    expect(count('human  camille.martin approves cloturer_dossier')).toBe(1);
    expect(count('confirmation ✓ · executed (after approval)')).toBe(1);
    expect(count('end      completed · 3 turn(s) · 4 call(s): 2 executed, 2 refused')).toBe(1);
    // Every other backend is checked against it, one line each.
    expect(count('same trace ✓ (10 steps)')).toBe(BACKENDS.length - 1);
    expect(stdout).not.toContain('PROBLEM');
    expect(stdout.split('\n').length).toBeLessThan(80);
  });

  it('shows where each wire puts the same turn, found in the traffic, and the next commands', async () => {
    const { code, stdout } = await runBin(['demo']);
    expect(code).toBe(0);
    const table = stdout.slice(stdout.indexOf('The same turn on each wire'), stdout.indexOf('Next:'));
    const row = (title: string) => table.slice(table.indexOf(title)).split('\n\n')[0] ?? '';
    // Field names and placement differ per provider; these are what each SDK sent and received.
    expect(row('the model asks for it')).toMatch(
      /anthropic +content\[1\] +\{type: "tool_use", id, name, input: \{…\}\}/,
    );
    expect(row('the model asks for it')).toMatch(
      /openai-chat +choices\[0\]\.message\.tool_calls\[0\].*function: \{name, arguments: "\{…\}" \(JSON text\)\}/,
    );
    expect(row('the model asks for it')).toMatch(/openai-responses +output\[\d\] +\{type: "function_call", .*call_id/);
    expect(row('the model asks for it')).toMatch(
      /gemini-genai +candidates\[0\]\.content\.parts\[\d\]\.functionCall .*\{name, args: \{…\}\}/,
    );
    expect(row('the result, sent back')).toMatch(
      /anthropic +messages\[\d\]\.content\[0\] \(in the "user" message\) +\{type: "tool_result", tool_use_id/,
    );
    expect(row('the result, sent back')).toMatch(/openai-chat +messages\[\d\] +\{role: "tool", tool_call_id/);
    expect(row('the result, sent back')).toMatch(
      /openai-responses +input\[\d\] +\{type: "function_call_output", call_id/,
    );
    expect(row('the result, sent back')).toMatch(
      /gemini-generative-ai +.*functionResponse \(in the "function" message\)/,
    );
    expect(row('why the turn stopped')).toMatch(/anthropic +stop_reason +"tool_use"/);
    expect(row('the tool, as declared')).toMatch(
      /gemini-genai +tools\[0\]\.functionDeclarations\[0\] .*type: "OBJECT"/,
    );
    // The binary built in this clone: the hints say how a clone runs it (no `toolcircuit` on PATH there).
    expect(stdout).toContain('  pnpm exec toolcircuit demo --show-wire');
    expect(stdout).toMatch(/^ {2}pnpm exec toolcircuit run <catalogue\.js>/m);
  });

  it('--show-wire prints the bodies the table was read from', async () => {
    const { code, stdout } = await runBin(['demo', '--show-wire']);
    expect(code).toBe(0);
    expect(stdout).toContain('── anthropic: first request body');
    expect(stdout).toContain('── gemini-genai: the next request body (the results going back)');
    expect(stdout).toContain('"tool_use_id": "toolu_demo01"');
    expect(stdout).toContain('"functionDeclarations": [');
  });

  it('--json: one JSON object per line, every event tagged with its backend, ending with the verdict', async () => {
    const { code, stdout } = await runBin(['demo', '--json']);
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: 'demo-result', identical: true });
    expect(
      ((result?.['backends'] ?? []) as { backend: string; problems: string[] }[]).map((b) => [b.backend, b.problems]),
    ).toEqual(BACKENDS.map((backend) => [backend, []]));
    const steps = (backend: string) =>
      lines.filter(
        (line) => line['backend'] === backend && ['text', 'call', 'confirmation', 'end'].includes(String(line['type'])),
      );
    const reference = steps('anthropic').map(({ backend: _backend, ...rest }) => rest);
    expect(reference).toHaveLength(10);
    for (const backend of BACKENDS)
      expect(steps(backend).map(({ backend: _backend, ...rest }) => rest)).toEqual(reference);
    expect(reference.find((step) => step['type'] === 'call' && step['reason'] === 'invalid_input')).toMatchObject({
      tool: 'chercher_dossier',
      input: { numero: 'b-12' },
      checks: { exists: 'pass', schema: 'fail', right: 'skipped', confirmation: 'skipped' },
    });
  });

  it('exits 1 and names the backends whose trace differs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-demo-'));
    await cp(DEMO_CASSETTES, dir, { recursive: true });
    const gemini = join(dir, 'gemini.json');
    // Another (synthetic) answer in the last turn for Gemini only: both Gemini backends must be told apart.
    await writeFile(
      gemini,
      (await readFile(gemini, 'utf8')).replace('Le dossier A-1234 est clôturé.', 'Dossier A-1234 clos.'),
    );
    const { code, stdout } = await runBin(['demo', '--cassettes', dir]);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'Traces differ: gemini-genai, gemini-generative-ai differ from anthropic.',
    );
  });

  it('reports a backend whose requests do not match its cassette', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-demo-'));
    await cp(DEMO_CASSETTES, dir, { recursive: true });
    const chat = join(dir, 'openai-chat.json');
    await writeFile(chat, (await readFile(chat, 'utf8')).replaceAll('/v1/chat/completions', '/v1/chat/other'));
    const { code, stdout } = await runBin(['demo', '--cassettes', dir]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'PROBLEM: request #1 did not match the cassette: path /v1/chat/completions ≠ recorded /v1/chat/other',
    );
    expect(stdout).toContain('Traces differ: openai-chat differs from anthropic.');
  });

  it('rejects arguments it does not take', async () => {
    const { code, stderr } = await runBin(['demo', 'extra']);
    expect(code).toBe(2);
    expect(stderr).toContain('demo takes no arguments');
  });
});

describe('toolcircuit demo --live', () => {
  it('without any key, says which variables to set (exit 2)', async () => {
    const { code, stderr } = await runBin(['demo', '--live']);
    expect(code).toBe(2);
    expect(stderr).toContain('Set one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY');
  });

  it('with TOOLCIRCUIT_MODEL but no key, names the key of that provider', async () => {
    const { code, stderr } = await runBin(['demo'], { env: { TOOLCIRCUIT_MODEL: 'openai:gpt-5-mini' } });
    expect(code).toBe(2);
    expect(stderr).toContain('Set OPENAI_API_KEY');
  });

  it('runs live when TOOLCIRCUIT_MODEL is set (here pointed at a local SSE replay), streaming the text', async () => {
    const server = await startReplayServer(anthropicDemoAsSse());
    try {
      const { code, stdout, stderr } = await runBin(['demo'], {
        env: {
          TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5',
          TOOLCIRCUIT_BASE_URL: server.url,
          ANTHROPIC_API_KEY: 'sk-ant-live-demo-test-0123456789',
        },
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('toolcircuit demo (live): anthropic:claude-haiku-5-5 at http://127.0.0.1');
      expect(stdout).toContain('turn 1  model  Je cherche les deux dossiers.');
      expect(stdout).toContain('confirmation ✓ · executed (after approval)');
      expect(stdout).toContain('cloturer_dossier ran 1 time(s)');
      expect(server.mismatches).toEqual([]);
      expect(server.received.every((request) => (request.body as { stream?: unknown }).stream === true)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
