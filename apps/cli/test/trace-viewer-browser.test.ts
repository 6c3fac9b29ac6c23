import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { traceRecordLine } from '@toolcircuit/otel';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinProcess, runBin, startBin } from './support/cli-process.js';
import { ATTACKER_IBAN, injectedTrace } from './support/injected-trace.js';
import { sourcedTrace, syntheticTrace } from './support/synthetic-trace.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../../.toolcircuit/artifacts/', import.meta.url));
// In CI a missing browser is a failure (.ci/run installs it); elsewhere the test says why it did not run.
const browserMissing = !existsSync(CHROMIUM) && process.env['CI'] !== 'true';

/**
 * The newcomer's path in a real headless Chromium (Debian's package, driven by playwright-core):
 * `toolcircuit demo --trace run.jsonl`, then `toolcircuit trace open run.jsonl`, then the page.
 */
describe.skipIf(browserMissing)('the trace viewer in Chromium', () => {
  let folder: string;
  let server: BinProcess;
  let url: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolcircuit-trace-'));
    await mkdir(ARTIFACTS, { recursive: true });
    const demo = await runBin(['demo', '--trace', 'run.jsonl'], { cwd: folder });
    expect(demo.code).toBe(0);
    expect(demo.stderr).toContain('trace written to');
    server = startBin(['trace', 'open', 'run.jsonl'], { cwd: folder });
    const [, address] = await server.line(/trace viewer: (http:\/\/127\.0\.0\.1:\d+\/\S*)/);
    url = address ?? '';
    context = await chromium.launchPersistentContext(join(folder, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    server?.child.kill('SIGTERM');
    await server?.done;
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('shows the demo run: 3 turns, 4 calls, each outcome in words', async () => {
    await page.goto(url);
    await page.waitForSelector('[data-turns]');
    expect(await page.getAttribute('[data-turns]', 'data-turns')).toBe('3');
    expect(await page.getAttribute('[data-calls]', 'data-calls')).toBe('4');
    // One run per backend of the demo, the first shown.
    expect(await page.locator('#run option').count()).toBe(5);
    expect(await page.locator('.row.call').count()).toBe(4);
    const categories = await page
      .locator('.row.call')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-category')));
    expect(categories).toEqual(['ok', 'refused', 'refused', 'approved']);
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    const text = await page.locator('#timeline').innerText();
    expect(text).toContain('refused by the schema (invalid input)');
    expect(text).toContain('refused: missing right “dossiers:delete”');
    expect(text).toContain('paused for confirmation → approved → ran once ✓');
    expect(text).toMatch(/Run paused: cloturer_dossier \(digest [0-9a-f]{12}…\) waits for the human's confirmation/);
    // The looked-up case file is untrusted output, and the number was copied from it: the closure was gated.
    expect(text).toMatch(
      /GATED\s+cloturer_dossier after untrusted content from chercher_dossier \(call [^)]+\); copied from it: \/numero = "A-1234"/,
    );
    expect(text).toMatch(/camille\.martin approved cloturer_dossier \(digest [0-9a-f]{12}…\); it then ran once/);
    await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-demo.png'), fullPage: true });
  });

  it('filters refusals', async () => {
    await page.click('[data-filter="refusals"]');
    expect(await page.getAttribute('[data-shown-calls]', 'data-shown-calls')).toBe('2');
    const tools = await page
      .locator('.row.call')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tool')));
    expect(tools).toEqual(['chercher_dossier', 'supprimer_dossier']);
    await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-refusals.png'), fullPage: true });
    await page.click('[data-filter="all"]');
    expect(await page.locator('.row.call').count()).toBe(4);
  });

  it("opens a call's details: both attempts, the human's decision, input, result, digests, provenance", async () => {
    await page.click('.row.call[data-tool="cloturer_dossier"]');
    const details = page.locator('#details');
    await details.locator('[data-detail-tool="cloturer_dossier"]').waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
    const text = await details.innerText();
    // Headings are upper-cased by the style sheet: innerText gives them as shown.
    expect(text).toMatch(/attempt 1 of 2/i);
    expect(text).toMatch(/attempt 2 of 2 \(after the decision\)/i);
    expect(text).toMatch(/decision\s+approved/);
    expect(text).toMatch(/by\s+camille\.martin/);
    expect(text).toContain('"numero": "A-1234"');
    expect(text).toMatch(/right checked\s+dossiers:close/);
    expect(text).toMatch(/journal entry\s+[0-9a-f]{64}/);
    expect(text).toMatch(/response id\s+msg_/);
    expect(text).toContain('none yet: held for the human');
    await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-details.png'), fullPage: true });
  });

  it('says why a call was gated: the untrusted mail it followed and the IBAN copied from it', async () => {
    const name = 'injected.jsonl';
    await writeFile(join(folder, name), (await injectedTrace()).map(traceRecordLine).join(''));
    const injected = startBin(['trace', 'open', name], { cwd: folder });
    try {
      const [, address] = await injected.line(/trace viewer: (http:\/\/127\.0\.0\.1:\d+\/\S*)/);
      await page.goto(address ?? '');
      await page.waitForSelector('[data-turns]');
      // The payment's row says it came after untrusted content; the mail's row that its output is untrusted.
      const payment = page.locator('.row.call[data-tool="send_money"]');
      expect(await payment.locator('[data-gated]').getAttribute('title')).toBe(
        'after untrusted content: 1 source, 2 values copied from it',
      );
      expect(await page.locator('.row.call[data-tool="read_mail"] [data-untrusted-output]').count()).toBe(1);
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      const timeline = await page.locator('#timeline').innerText();
      // Under the payment, in the timeline: where its arguments came from, the attacker's IBAN among them.
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      const marker = await page.locator('[data-gate-marker="pay-1"]').innerText();
      expect(marker).toMatch(
        /^GATED\s+send_money after untrusted content from read_mail \(call mail-1\); copied from it: /,
      );
      expect(marker).toContain(`/iban = "${ATTACKER_IBAN}"`);
      expect(timeline).toContain(marker);
      await payment.click();
      const gate = page.locator('#details [data-detail="gate"]');
      await gate.waitFor();
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      const why = await gate.innerText();
      expect(why).toMatch(/gated because\s+irreversible/);
      expect(why).toMatch(/policy\s+pause/);
      expect(why).toMatch(/read_mail \(call mail-1, turn 1\), output [0-9a-f]{12}…/);
      expect(why).toContain(`/iban = "${ATTACKER_IBAN}" found in read_mail (call mail-1)`);
      expect(why).toContain('/amount = 1250 found in read_mail (call mail-1)');
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      const details = await page.locator('#details').innerText();
      expect(details).toMatch(/informed of\s+the untrusted sources above \(taint digest [0-9a-f]{12}…\)/);
      await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-gated.png'), fullPage: true });
    } finally {
      injected.child.kill('SIGTERM');
      await injected.done;
    }
  });

  it("shows a turn's sources and what the provider sent that the adapter kept without understanding it", async () => {
    const name = 'synthetic-sources.jsonl';
    await writeFile(join(folder, name), sourcedTrace().map(traceRecordLine).join(''));
    const folderServer = startBin(['trace', 'serve', '.'], { cwd: folder });
    try {
      const [, address] = await folderServer.line(/trace viewer: (http:\/\/127\.0\.0\.1:\d+\/)/);
      await page.goto(`${address}?trace=files/${name}`);
      await page.waitForSelector('[data-turns="1"]');
      expect(await page.getAttribute('.marker.sources', 'data-sources')).toBe('3');
      expect(await page.getAttribute('.marker.kept', 'data-provider-parts')).toBe('1');
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a person sees it.
      const text = await page.locator('#timeline').innerText();
      expect(text).toContain('3 citations: Weather in Paris <https://example.org/paris> · <b>report.pdf</b>');
      expect(text).toContain('Not understood, kept in the conversation and journaled: hologram (anthropic)');
      // Text from the file is escaped: a title with markup is shown as text, not run.
      expect(await page.locator('.marker.sources b').count()).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-sources.png') });
    } finally {
      folderServer.child.kill('SIGTERM');
      await folderServer.done;
    }
  });

  it('renders a 500-turn synthetic run lazily: only the turns in view are in the page', async () => {
    const name = 'synthetic-500.jsonl';
    await writeFile(join(folder, name), syntheticTrace(500).map(traceRecordLine).join(''));
    const folderServer = startBin(['trace', 'serve', '.'], { cwd: folder });
    try {
      const [, address] = await folderServer.line(/trace viewer: (http:\/\/127\.0\.0\.1:\d+\/)/);
      const started = Date.now();
      await page.goto(`${address}?trace=files/${name}`);
      await page.waitForSelector('[data-turns="500"]');
      const shownAfter = Date.now() - started;
      expect(await page.getAttribute('[data-calls]', 'data-calls')).toBe('1250');
      const rendered = await page.locator('section.turn').count();
      expect(rendered).toBeGreaterThan(0);
      expect(rendered).toBeLessThan(60);
      await page.locator('#timeline').evaluate((timeline) => {
        timeline.scrollTop = timeline.scrollHeight;
      });
      await page.waitForSelector('section.turn[data-turn="500"]');
      const parseMs = await page.getAttribute('body', 'data-load-ms');
      // A measurement for the report, not an assertion: timings belong in benchmarks.
      console.info(
        `trace viewer, 500 turns / 1250 calls: shown ${shownAfter} ms after navigation (parse + layout + first paint in page: ${parseMs} ms), ${rendered} turn blocks in the DOM`,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'trace-viewer-500-turns.png') });
    } finally {
      folderServer.child.kill('SIGTERM');
      await folderServer.done;
    }
  });
});

if (browserMissing) {
  describe('the trace viewer in Chromium', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`, () => {});
  });
}
