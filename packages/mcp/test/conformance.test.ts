import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSession } from '@toolcircuit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpCatalogueServer, serveCatalogue, serveCatalogueHttp } from '../src/index.js';
import { conformanceCatalogue } from './conformance-catalogue.js';

// The official suite, @modelcontextprotocol/conformance 0.1.13 (0.1.14+ import `fs.globSync`, Node ≥ 22).
// Which scenarios apply, and why the others do not, is in the package README. The client scenarios run in
// conformance-client.test.ts.
const suite = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const run = promisify(execFile);

/** Server scenarios that a tools-only catalogue server answers (resources, prompts, media… do not apply). */
const SERVER_SCENARIOS: Record<string, number> = {
  'server-initialize': 1,
  ping: 1,
  'tools-list': 1,
  'tools-call-simple-text': 1,
  'tools-call-error': 1,
  'json-schema-2020-12': 4,
  'server-sse-multiple-streams': 2,
  'dns-rebinding-protection': 2,
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

describe('MCP conformance suite', () => {
  let http: HttpCatalogueServer;
  let output: string;

  beforeAll(async () => {
    output = await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-conformance-'));
    const served = serveCatalogue(conformanceCatalogue, {
      sessionFor: () => createSession({ id: 'conformance', humanId: 'conformance-suite' }),
    });
    http = await serveCatalogueHttp(served);
    // One run of the suite's active server scenarios (loading the suite costs more than running them all),
    // plus the 2020-12 schema scenario, which is not in the active set. A failing run exits non-zero: the
    // checks say why, per scenario, below.
    const server = (...args: string[]) =>
      run(process.execPath, [suite, 'server', '--url', http.url.href, '-o', join(output, 'server'), ...args], {
        timeout: 120_000,
      }).catch((error: unknown) => error);
    await Promise.all([server(), server('--scenario', 'json-schema-2020-12')]);
  }, 180_000);
  afterAll(async () => {
    await http?.close();
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  for (const [scenario, expected] of Object.entries(SERVER_SCENARIOS)) {
    it(`server scenario ${scenario} against serveCatalogue`, async () => {
      const result = verdicts(await checksOf(join(output, 'server'), 'server-', scenario));
      expect(result.failed).toEqual([]);
      expect(result.passed).toBe(expected);
    });
  }
});
