// `toolcircuit serve` as a user starts it from the README's quick start: the built binary as a child process,
// offline (the synthetic cassette examples/inbox/pay-invoice.json, played by the CLI's own replay server
// through the real Anthropic adapter and SDK), a real SQLite file, and one approval round trip over HTTP with
// the printed token.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { type BinProcess, runBin, startBin } from './support/cli-process.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** The third command of the README's quick start (checked against the README below). */
const QUICK_START =
  'pnpm exec toolcircuit serve --catalogue apps/cli/examples/inbox/tools.mjs --model anthropic:claude-haiku-5-5 --replay apps/cli/examples/inbox/pay-invoice.json';
const IBAN = 'GB33BUKB20201555555555';
const CHROMIUM = '/usr/bin/chromium';
// In CI a missing browser is a failure (.ci/run installs it); elsewhere the test says why it did not run.
const browserMissing = !existsSync(CHROMIUM) && process.env['CI'] !== 'true';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(extra: readonly string[] = []): Promise<{ api: string; token: string; bin: BinProcess }> {
  const folder = await mkdtemp(join(tmpdir(), 'toolcircuit-serve-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  // The README's quick start, word for word from the repository's root, but on a free port and a temp store.
  const bin = startBin(
    [...QUICK_START.split(' ').slice(3), '--port', '0', '--store', `sqlite:${join(folder, 'runs.sqlite')}`, ...extra],
    { cwd: REPO, env: { USER: 'camille' } },
  );
  cleanups.push(async () => {
    bin.child.kill('SIGTERM');
    await bin.done;
  });
  const [, api = ''] = await bin.line(/api: (http:\/\/127\.0\.0\.1:\d+\/)/);
  const [, token = ''] = extra.includes('--auth') ? [] : await bin.line(/login token: (\S+)/);
  return { api, token, bin };
}

describe('toolcircuit serve', () => {
  it("is the README's quick start", async () => {
    expect(await readFile(join(REPO, 'README.md'), 'utf8')).toContain(QUICK_START);
  });

  it('offline with a replay cassette: the printed token starts a run, the approval is listed with the copied IBAN, approved once, and the run completes', async () => {
    const { api, token } = await served();
    const call = (path: string, body?: unknown, bearer: string | null = token) =>
      fetch(new URL(path, api), {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    // The page is served at /, under a policy that allows no inline script.
    const page = await fetch(api);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('approval inbox');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Without the token, or with another one, nobody is let in.
    expect((await call('approvals', undefined, null)).status).toBe(401);
    expect((await call('approvals', undefined, `${token}x`)).status).toBe(401);

    const started = await call('runs', { prompt: 'Pay the invoice in my mail.' });
    expect(started.status).toBe(201);
    const { run } = (await started.json()) as { run: { id: string; status: string } };
    expect(run.status).toBe('paused');

    const { approvals } = (await (await call('approvals')).json()) as {
      approvals: {
        runId: string;
        callId: string;
        toolName: string;
        input: unknown;
        inputDigest: string;
        taintDigest?: string;
        untrustedSources: { toolName: string; excerpt: string }[];
        flaggedArguments: { path: string; value: unknown }[];
      }[];
    };
    expect(approvals).toHaveLength(1);
    const [approval] = approvals;
    expect(approval).toMatchObject({
      runId: run.id,
      toolName: 'send_money',
      input: { iban: IBAN, amount: 9800 },
    });
    expect(approval?.untrustedSources[0]?.toolName).toBe('read_mail');
    expect(approval?.untrustedSources[0]?.excerpt).toContain(IBAN);
    expect(approval?.flaggedArguments.map((flag) => flag.path)).toEqual(expect.arrayContaining(['/iban', '/amount']));

    const decision = {
      decisions: [
        {
          callId: approval?.callId,
          approved: true,
          inputDigest: approval?.inputDigest,
          taintDigest: approval?.taintDigest,
        },
      ],
    };
    const decided = await call(`runs/${run.id}/decisions`, decision);
    expect(decided.status).toBe(200);
    const after = (await decided.json()) as {
      run: { status: string; text: string; messages: { role: string; content: unknown }[] };
    };
    expect(after.run.status).toBe('completed');
    expect(after.run.text).toBe(`Done: 9800 EUR sent to ${IBAN} for invoice 2026-11.`);
    const sent = JSON.stringify(after.run.messages).match(new RegExp(`sent 9800 EUR to ${IBAN}`, 'g'));
    expect(sent).toHaveLength(1);
    // The same approval again changes nothing: the call is not pending any more.
    const again = await call(`runs/${run.id}/decisions`, decision);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('run_not_paused');
  });

  it("--auth: the application's authenticate decides who is asking, and no login token is made", async () => {
    const { api, bin } = await served([
      '--auth',
      fileURLToPath(new URL('./fixtures/header-auth.mjs', import.meta.url)),
    ]);
    await bin.line(/inbox: \S+ \(sign-in through /);
    const approvals = (key?: string) =>
      fetch(new URL('approvals', api), key === undefined ? {} : { headers: { 'x-test-key': key } });
    expect((await approvals('key-of-ines')).status).toBe(200);
    expect((await approvals('key-of-someone-else')).status).toBe(401);
    expect((await approvals()).status).toBe(401);
    bin.child.kill('SIGTERM');
    const { stdout } = await bin.done;
    expect(stdout).not.toMatch(/token/);
  });

  it('--auth: a module exporting a sessionFor that is not a function is refused at start, naming it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'toolcircuit-serve-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const { code, stderr } = await runBin(
      [
        ...QUICK_START.split(' ').slice(3),
        '--port',
        '0',
        '--store',
        `sqlite:${join(folder, 'runs.sqlite')}`,
        '--auth',
        fileURLToPath(new URL('./fixtures/bad-session-for-auth.mjs', import.meta.url)),
      ],
      { cwd: REPO },
    );
    expect(code).toBe(ExitCode.usage);
    expect(stderr).toContain('exports a sessionFor that is not a function');
  });

  it.skipIf(browserMissing)(
    'the printed inbox link in Chromium: ask, see the copied IBAN marked, approve, read the answer',
    async () => {
      const { bin } = await served();
      const [, link = ''] = await bin.line(/inbox: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/);
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      cleanups.push(() => browser.close());
      const page = await browser.newPage();
      await page.goto(link);
      await page.getByLabel('Message', { exact: true }).fill('Pay the invoice in my mail.');
      await page.getByRole('button', { name: 'Send' }).click();
      const card = page.locator('[data-approval]');
      await expect.poll(() => card.count()).toBe(1);
      expect((await card.locator('[data-arguments] mark').allTextContents()).sort()).toEqual([`"${IBAN}"`, '9800']);
      expect(await card.locator('[data-excerpt] mark').allTextContents()).toEqual(expect.arrayContaining([IBAN]));
      await card.getByRole('button', { name: 'Approve send_money with these arguments' }).click();
      await expect.poll(() => page.locator('#run-status').getAttribute('data-status')).toBe('completed');
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      expect(await page.locator('#messages').innerText()).toContain(
        `Done: 9800 EUR sent to ${IBAN} for invoice 2026-11.`,
      );
    },
  );
});
