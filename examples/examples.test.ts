// Every example runs as a user would run it, offline: `node offline.mjs` (or the served catalogue's client)
// in its own folder, as a child process, with its imports resolved from the workspace (built packages:
// `pnpm test` builds first). The twenty lines and the assistant go through each provider's wire format.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

const PROVIDERS = [
  'anthropic:claude-sonnet-5-5',
  'openai:gpt-5.2',
  'openai-responses:gpt-5.2',
  'google:gemini-2.5-flash',
];

/** Runs `node <file> …args` in an example's folder; the parent's keys never reach it. */
async function node(example: string, file: string, args: string[] = [], env: Record<string, string> = {}) {
  const cwd = fileURLToPath(new URL(`${example}/`, import.meta.url));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [file, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout, stderr };
}

describe('examples, offline', () => {
  it('twenty-lines: main.mjs is the README block, word for word', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## In twenty lines')))?.[1];
    expect(readFileSync(new URL('twenty-lines/main.mjs', import.meta.url), 'utf8')).toBe(block);
  });

  it.each(PROVIDERS)(
    'twenty-lines on %s: offline.mjs, and main.mjs unchanged against a scripted provider',
    async (spec) => {
      const offline = await node('twenty-lines', 'offline.mjs', [spec]);
      expect(offline.stdout).toBe('completed Le dossier A-1234 est ouvert.\n');
      expect(offline.stderr).toBe('');
      // The README's own block, with the provider's environment only (TOOLCIRCUIT_MODEL switches it).
      const provider = await startScriptedProvider(spec, [
        toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }]),
        textTurn('Le dossier A-1234 est ouvert.'),
      ]);
      try {
        const main = await node('twenty-lines', 'main.mjs', [], { ...provider.env });
        expect(main.stdout).toBe('completed Le dossier A-1234 est ouvert.\n');
        provider.assertDone();
      } finally {
        await provider.close();
      }
    },
  );

  it.each(PROVIDERS)(
    'support-assistant on %s: paused in SQLite, approved from another process, refunded once',
    async (spec) => {
      const { stdout, stderr } = await node('support-assistant', 'offline.mjs', [spec]);
      expect(stdout).toMatch(/^run \S+: paused$/m);
      expect(stdout).toMatch(/^ {2}waits for a human: refund \{.*"orderId":"A-1001"/m);
      expect(stdout).toContain('(untrusted output in the run: web_search)');
      expect(stdout).toMatch(/^run \S+: completed$/m);
      expect(stdout).toContain('refunds in the ledger: 1');
      expect(stderr).toBe('');
    },
  );

  it('mcp-import: reads run, the write waits for the human, then runs once', async () => {
    const { stdout } = await node('mcp-import', 'offline.mjs');
    expect(stdout).toContain('imported read_text_file: runs freely');
    expect(stdout).toContain('imported write_file: irreversible, needs a confirmation');
    expect(stdout).toMatch(/^approved by alice: write_file /m);
    expect(stdout).toContain('tomorrow.txt: "call the plumber\\n"');
  });

  it('served-catalogue: an MCP client calls the served tools; every call through the four checks', async () => {
    const { stdout, stderr } = await node('served-catalogue', 'client.mjs');
    expect(stdout).toContain('tool cancel_order (destructive)');
    expect(stdout).toMatch(/^look_up_order \{"orderId":"A-1001"\} → ok/m);
    expect(stdout).toMatch(/^look_up_order \{"orderId":"1001"\} → refused: .*must match pattern/m);
    expect(stdout).toMatch(/^the server asks the human: .*cancel_order/m);
    expect(stdout).toMatch(/^cancel_order \{"orderId":"A-1001"\} → ok/m);
    expect(stdout).toMatch(/^close_account \{\} → refused: .*accounts:close/m);
    expect(stderr).toContain('journal: close_account refused (missing_right)');
  });

  it('otel-console: the run, model and tool spans on the console exporter', async () => {
    const { stdout } = await node('otel-console', 'offline.mjs');
    expect(stdout).toContain("name: 'invoke_agent toolcircuit'");
    expect(stdout).toContain("name: 'chat claude-sonnet-5-5'");
    expect(stdout).toContain("'toolcircuit.verdict': 'refused'");
    expect(stdout).toContain("'toolcircuit.verdict': 'executed'");
    expect(stdout).toMatch(/^completed A-1234 est ouvert/m);
  });
});
