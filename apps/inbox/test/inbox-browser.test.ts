import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTACKER_ACCOUNT,
  CHROMIUM,
  type InboxWorld,
  launchChromium,
  startInboxWorld,
  TOKENS,
} from './support/inbox-world.js';

// `pnpm --filter @toolcircuit/inbox screenshots` runs this file with INBOX_SCREENSHOTS=1: the README's images.
const SHOTS =
  process.env['INBOX_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../docs/', import.meta.url))
    : fileURLToPath(new URL('../../../.toolcircuit/artifacts/', import.meta.url));
// In CI a missing browser is a failure (.ci/run installs it); elsewhere the test says why it did not run.
const browserMissing = !existsSync(CHROMIUM) && process.env['CI'] !== 'true';

describe.skipIf(browserMissing)('the approval inbox in Chromium', () => {
  let browser: Browser;
  let world: InboxWorld;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await world?.close();
  });

  /** A tab signed in as `human` through a login link, as `toolcircuit serve` prints it. */
  async function tab(human: keyof typeof TOKENS, context?: BrowserContext): Promise<Page> {
    const ctx = context ?? (await browser.newContext({ viewport: { width: 1300, height: 900 } }));
    if (context === undefined) contexts.push(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // A refused decision is an HTTP error the page handles; anything else logged as an error is a fault.
      if (message.type() === 'error' && !/status of 409/.test(message.text())) errors.push(message.text());
    });
    await page.goto(`${world.base}/#token=${TOKENS[human]}`);
    await page.locator('#prompt').waitFor();
    // The token left the address bar once taken.
    expect(page.url()).toBe(`${world.base}/`);
    expect(await page.locator('#login').isVisible()).toBe(false);
    (page as Page & { errors?: string[] }).errors = errors;
    return page;
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  const status = (page: Page) => page.locator('#run-status');

  it('approve: the informed request, flagged values marked in the arguments and the mail; the tool ran once and the answer appears', async () => {
    world = await startInboxWorld();
    const page = await tab('marie');
    await ask(page, 'Pay the invoice in my latest mail.');
    await expect.poll(() => status(page).getAttribute('data-status')).toBe('paused');
    const card = page.locator('[data-approval]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getAttribute('data-tool')).toBe('transfer');
    // The exact arguments, with the two values copied from the mail marked at their paths.
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    expect(await card.locator('[data-arguments]').innerText()).toBe(
      `{\n  "amount": 4411,\n  "to": "${ATTACKER_ACCOUNT}"\n}`,
    );
    expect(await card.locator('[data-arguments] mark').allTextContents()).toEqual(['4411', `"${ATTACKER_ACCOUNT}"`]);
    expect(
      await card
        .locator('[data-arguments] mark')
        .evaluateAll((marks) => marks.map((mark) => mark.getAttribute('data-pointer'))),
    ).toEqual(['/amount', '/to']);
    // The untrusted source, its excerpt, the same values marked in it.
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    const text = await card.innerText();
    expect(text).toMatch(/Held because it is irreversible and came after untrusted content \(1 source\)/);
    expect(text).toMatch(/Untrusted source: read_inbox \(call mail, turn 1\)/i);
    const excerpt = card.locator('[data-excerpt="mail"]');
    expect(await excerpt.textContent()).toContain('pay invoice 4411 to account');
    expect(await excerpt.locator('mark').allTextContents()).toEqual(['4411', ATTACKER_ACCOUNT]);
    expect(world.executions).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'inbox-approval.png'), fullPage: true });

    // Keyboard only: focus the Approve button by tabbing from the note field, and press Enter.
    await card.getByLabel('Note to the model (optional)').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Approve transfer with these arguments',
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).getAttribute('data-status')).toBe('completed');
    expect(world.executions).toEqual([{ amount: 4411, to: ATTACKER_ACCOUNT }]);
    // The decided card is gone; the focus is on what happened, not lost to the page.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('notice');
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    expect(await page.locator('#messages').innerText()).toContain(`Done: sent 4411 to ${ATTACKER_ACCOUNT}.`);
    await expect.poll(() => page.locator('[data-approval]').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'inbox-approved.png'), fullPage: true });
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  });

  it('decline: nothing runs and the model is told, with the note, which its answer shows', async () => {
    world = await startInboxWorld();
    const page = await tab('marie');
    await ask(page, 'Pay Bob his 10.');
    const card = page.locator('[data-approval]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('[data-arguments] mark').count()).toBe(0);
    await card.getByLabel('Note to the model (optional)').fill('Bob was paid already.');
    await card.getByRole('button', { name: 'Decline transfer' }).click();
    await expect.poll(() => status(page).getAttribute('data-status')).toBe('completed');
    expect(world.executions).toEqual([]);
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    const messages = await page.locator('#messages').innerText();
    expect(messages).toMatch(/The transfer was not made: .*Bob was paid already/);
  });

  it('two tabs approve the same call: the tool runs once, the second tab is told it was decided already', async () => {
    world = await startInboxWorld();
    const first = await tab('marie');
    await ask(first, 'Pay Bob his 10.');
    await expect.poll(() => first.locator('[data-approval]').count()).toBe(1);
    const second = await tab('marie', first.context());
    await expect.poll(() => second.locator('[data-approval]').count()).toBe(1);
    // The first approval holds the tool while it runs, so the second arrives during the run.
    world.hold();
    await first.getByRole('button', { name: 'Approve transfer with these arguments' }).click();
    await world.started();
    await second.getByRole('button', { name: 'Approve transfer with these arguments' }).click();
    await expect
      .poll(() => second.locator('#notice').getAttribute('data-code'))
      .toMatch(/^(run_not_paused|decision_conflict)$/);
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    expect(await second.locator('#notice').innerText()).toContain('Someone already decided this call');
    world.release();
    await expect.poll(() => status(first).getAttribute('data-status')).toBe('completed');
    expect(world.executions).toEqual([{ amount: 10, to: 'bob' }]);
    await second.screenshot({ path: join(SHOTS, 'inbox-conflict.png'), fullPage: true });
  });

  it('reload while the approved tool runs: the page shows the run again, then its end', async () => {
    world = await startInboxWorld();
    const page = await tab('marie');
    await ask(page, 'Pay Bob his 10.');
    await expect.poll(() => page.locator('[data-approval]').count()).toBe(1);
    world.hold();
    await page.getByRole('button', { name: 'Approve transfer with these arguments' }).click();
    await world.started();
    await page.reload();
    // The same run, read back from the server: its prompt and the call, still going.
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    await expect.poll(() => page.locator('#messages').innerText()).toContain('Pay Bob his 10.');
    expect(await status(page).getAttribute('data-status')).toBe('resuming');
    world.release();
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: 10_000 }).toBe('completed');
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    const messages = await page.locator('#messages').innerText();
    expect(messages).toContain('Done: sent 10 to bob.');
    expect(messages.match(/Pay Bob his 10\./g)).toHaveLength(1);
    expect(world.executions).toEqual([{ amount: 10, to: 'bob' }]);
  });

  it("a second human sees nothing of the first's runs", async () => {
    world = await startInboxWorld();
    const marie = await tab('marie');
    await ask(marie, 'Pay Bob his 10.');
    await expect.poll(() => marie.locator('[data-approval]').count()).toBe(1);
    const runId = await marie.evaluate(() => sessionStorage.getItem('toolcircuit-inbox-run'));
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);

    const omar = await tab('omar');
    await expect.poll(() => omar.locator('#inbox-empty').isVisible()).toBe(true);
    expect(await omar.locator('[data-approval]').count()).toBe(0);
    expect(await omar.locator('#messages li').count()).toBe(0);
    // Even with the run's id in his tab, the page shows him nothing of it.
    await omar.evaluate((id) => sessionStorage.setItem('toolcircuit-inbox-run', id ?? ''), runId);
    await omar.reload();
    await omar.locator('#prompt').waitFor();
    await expect.poll(() => omar.evaluate(() => sessionStorage.getItem('toolcircuit-inbox-run'))).toBe(null);
    expect(await omar.locator('#messages li').count()).toBe(0);
    expect(await omar.locator('[data-approval]').count()).toBe(0);
    expect(world.executions).toEqual([]);
    // Marie's approval is still hers to decide.
    expect(await marie.locator('[data-approval]').count()).toBe(1);
  });
});
