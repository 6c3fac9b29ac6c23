import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The official suite, @modelcontextprotocol/conformance 0.1.13 (0.1.14+ import `fs.globSync`, Node ≥ 22).
// The server side runs in conformance-server.test.ts; which scenarios apply, and why, is in the package README.
const suite = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const client = fileURLToPath(new URL('./fixtures/conformance-client.mjs', import.meta.url));
const builtEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const run = promisify(execFile);

/** Client scenarios for a tools client (the auth/* scenarios test OAuth flows, which the importer leaves to the SDK). */
const CLIENT_SCENARIOS: Record<string, number> = {
  initialize: 1,
  tools_call: 1,
  'elicitation-sep1034-client-defaults': 5,
  'sse-retry': 3,
};

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

/** The checks of one scenario from a results folder (the suite names each run `<prefix><scenario>-<time>`). */
async function checksOf(outputDir: string, prefix: string, scenario: string): Promise<Check[]> {
  const dir = (await readdir(outputDir)).find((name) => new RegExp(`^${prefix}${scenario}-\\d{4}-`).test(name));
  if (dir === undefined) throw new Error(`the suite wrote no results for ${scenario} to ${outputDir}`);
  return JSON.parse(await readFile(join(outputDir, dir, 'checks.json'), 'utf8')) as Check[];
}

function verdicts(checks: readonly Check[]): { passed: number; failed: string[] } {
  return {
    passed: checks.filter((check) => check.status === 'SUCCESS').length,
    failed: checks
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
      .map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
  };
}

describe('MCP conformance suite, client side', () => {
  let output: string;

  beforeAll(async () => {
    output = await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-conformance-'));
  });
  afterAll(async () => {
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  for (const [scenario, expected] of Object.entries(CLIENT_SCENARIOS)) {
    it(`client scenario ${scenario} against connectMcpServer`, async () => {
      // The client runs from the built package, as an application would (`pnpm test` builds first).
      expect(existsSync(builtEntry), 'build @toolcircuit/mcp first (pnpm build)').toBe(true);
      const dir = join(output, `client-${scenario}`);
      await run(
        process.execPath,
        [
          suite,
          'client',
          '--command',
          `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`,
          '--scenario',
          scenario,
          '-o',
          dir,
        ],
        { timeout: 60_000 },
      ).catch((error: unknown) => error);
      const result = verdicts(await checksOf(dir, '', scenario));
      expect(result.failed).toEqual([]);
      expect(result.passed).toBe(expected);
    }, 90_000);
  }
});
