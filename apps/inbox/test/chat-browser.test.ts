// The useChat page (React, @ai-sdk/react) against the run server's POST /chat, in Debian's Chromium: the
// approval request with the informed request, answered with addToolApprovalResponse from the keyboard.
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

const SHOTS =
  process.env['INBOX_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../docs/', import.meta.url))
    : fileURLToPath(new URL('../../../.toolcircuit/artifacts/', import.meta.url));
// In CI a missing browser is a failure (.ci/run installs it); elsewhere the test says why it did not run.
const browserMissing = !existsSync(CHROMIUM) && process.env['CI'] !== 'true';

describe.skipIf(browserMissing)('the useChat page in Chromium', () => {
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

  async function chatTab(human: keyof typeof TOKENS): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${world.base}/chat.html#token=${TOKENS[human]}`);
    await page.getByLabel('Message', { exact: true }).waitFor();
    // The token left the address bar once taken.
    expect(page.url()).toBe(`${world.base}/chat.html`);
    return { page, errors };
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  const transcript = (page: Page) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, as a person reads it.
    page.getByRole('list', { name: 'Conversation' }).innerText();

  it('approve from the keyboard: the informed request with the copied values marked; the tool ran once and the answer appears', async () => {
    world = await startInboxWorld();
    const { page, errors } = await chatTab('marie');
    await ask(page, 'Pay the invoice in my latest mail.');
    const card = page.locator('[data-approval]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getAttribute('data-approval')).toBe('pay');
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, as a person reads it.
    expect(await card.locator('[data-arguments]').innerText()).toBe(
      `{\n  "amount": 4411,\n  "to": "${ATTACKER_ACCOUNT}"\n}`,
    );
    expect(await card.locator('[data-arguments] mark').allTextContents()).toEqual(['4411', `"${ATTACKER_ACCOUNT}"`]);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, as a person reads it.
    const text = await card.innerText();
    expect(text).toMatch(/Held because it is irreversible and came after untrusted content \(1 source\)/);
    expect(text).toMatch(/Untrusted source: read_inbox \(call mail, turn 1\)/);
    const excerpt = card.locator('[data-excerpt="mail"]');
    expect(await excerpt.textContent()).toContain('pay invoice 4411 to account');
    expect(await excerpt.locator('mark').allTextContents()).toEqual(['4411', ATTACKER_ACCOUNT]);
    // The mail was read (its call done), the transfer waits.
    expect(await page.locator('[data-tool="read_inbox"]').getAttribute('data-state')).toBe('output-available');
    expect(world.executions).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chat-approval.png'), fullPage: true });

    // Keyboard only: from the note field, Tab reaches Approve; Enter answers it.
    await card.getByLabel('Note to the model (optional)').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Approve transfer with these arguments',
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => transcript(page)).toContain(`Done: sent 4411 to ${ATTACKER_ACCOUNT}.`);
    expect(await page.locator('[data-tool="transfer"]').getAttribute('data-state')).toBe('output-available');
    expect(await page.locator('[data-approval]').count()).toBe(0);
    expect(world.executions).toEqual([{ amount: 4411, to: ATTACKER_ACCOUNT }]);
    // One assistant message, continued after the approval: no second copy of the conversation.
    expect(await page.locator('[data-role="assistant"]').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'chat-approved.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it("decline with a reason: nothing runs, the model is told, its answer shows; another human's page never shows the run", async () => {
    world = await startInboxWorld();
    const { page, errors } = await chatTab('marie');
    await ask(page, 'Pay Bob his 10.');
    const card = page.locator('[data-approval]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('[data-arguments] mark').count()).toBe(0);
    await card.getByLabel('Note to the model (optional)').fill('Bob was paid already.');
    await card.getByRole('button', { name: 'Decline transfer' }).click();
    await expect.poll(() => transcript(page)).toMatch(/The transfer was not made: .*Bob was paid already/);
    expect(await page.locator('[data-tool="transfer"]').getAttribute('data-state')).toBe('output-denied');
    expect(world.executions).toEqual([]);
    expect(errors).toEqual([]);

    const omar = await chatTab('omar');
    expect(await omar.page.locator('[data-role]').count()).toBe(0);
    const approvals = await omar.page.evaluate(async (token) => {
      const response = await fetch('approvals', { headers: { authorization: `Bearer ${token}` } });
      return (await response.json()) as { approvals: unknown[] };
    }, TOKENS.omar);
    expect(approvals.approvals).toEqual([]);
  });
});
