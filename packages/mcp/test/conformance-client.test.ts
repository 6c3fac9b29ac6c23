import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The client side of the official suite, @modelcontextprotocol/conformance 0.1.13 (0.1.14+ import
// `fs.globSync`, Node ≥ 22), run whole: every client scenario it lists drives
// test/fixtures/conformance-client.mjs (connectMcpServer from the built package, OAuth through
// `server.oauth` and the loopback authorizer). Why the failing checks fail is in the package README.
const suite = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const client = fileURLToPath(new URL('./fixtures/conformance-client.mjs', import.meta.url));
const builtEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const run = promisify(execFile);

interface Expected {
  readonly passed: number;
  readonly total: number;
  /** Checks that fail, with the reason in the README. */
  readonly failing?: readonly string[];
}

/** RFC 8414 §3.3: the suite's tenant authorization server names another issuer than its metadata URL. */
const ISSUER_MISMATCH = ['client-registration', 'authorization-request', 'token-request'];

/**
 * Per scenario: checks passed of all checks (INFO lines are the suite's traffic log, not checks). The auth
 * scenarios count one `valid-bearer-token` per authorized request, the `server/discover` probe included.
 */
const CLIENT_SCENARIOS: Record<string, Expected> = {
  initialize: { passed: 1, total: 1 },
  tools_call: { passed: 1, total: 1 },
  'elicitation-sep1034-client-defaults': { passed: 5, total: 5 },
  'sse-retry': { passed: 3, total: 3 },
  'auth/metadata-default': { passed: 15, total: 15 },
  'auth/metadata-var1': { passed: 15, total: 15 },
  'auth/metadata-var2': { passed: 2, total: 5, failing: ISSUER_MISMATCH },
  'auth/metadata-var3': { passed: 2, total: 5, failing: ISSUER_MISMATCH },
  'auth/basic-cimd': { passed: 15, total: 15 },
  'auth/scope-from-www-authenticate': { passed: 16, total: 16 },
  'auth/scope-from-scopes-supported': { passed: 16, total: 16 },
  'auth/scope-omitted-when-undefined': { passed: 16, total: 16 },
  'auth/scope-step-up': { passed: 22, total: 22 },
  'auth/scope-retry-limit': { passed: 22, total: 22 },
  'auth/token-endpoint-auth-basic': { passed: 20, total: 20 },
  'auth/token-endpoint-auth-post': { passed: 20, total: 20 },
  'auth/token-endpoint-auth-none': { passed: 20, total: 20 },
  'auth/resource-mismatch': { passed: 3, total: 3 },
  'auth/pre-registration': { passed: 15, total: 15 },
  'auth/2025-03-26-oauth-metadata-backcompat': { passed: 14, total: 14 },
  'auth/2025-03-26-oauth-endpoint-fallback': { passed: 9, total: 9 },
  'auth/client-credentials-jwt': { passed: 10, total: 10 },
  'auth/client-credentials-basic': { passed: 10, total: 10 },
};

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

/** The checks.json the suite wrote somewhere under `dir` (auth scenarios nest one folder deeper). */
async function checksUnder(dir: string): Promise<Check[] | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'checks.json') return JSON.parse(await readFile(path, 'utf8')) as Check[];
    if (entry.isDirectory()) {
      const found = await checksUnder(path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Runs `work` over `items`, `limit` at a time (the machine's cores are shared). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

describe('MCP conformance suite, client scenarios (connectMcpServer)', () => {
  let output: string;
  const results = new Map<string, Check[]>();

  beforeAll(async () => {
    // The client runs from the built package, as an application would (`pnpm test` builds first).
    expect(existsSync(builtEntry), 'build @toolcircuit/mcp first (pnpm build)').toBe(true);
    output = await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-conformance-client-'));
    const { stdout } = await run(process.execPath, [suite, 'list']);
    const listed = stdout
      .slice(stdout.indexOf('Client scenarios'))
      .split('\n')
      .flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
    expect(listed.sort()).toEqual(Object.keys(CLIENT_SCENARIOS).sort());
    await eachLimited(listed, 3, async (scenario) => {
      const dir = join(output, scenario.replace('/', '_'));
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;
      // A scenario whose client fails exits non-zero: its checks say why.
      await run(process.execPath, [suite, 'client', '--command', command, '--scenario', scenario, '-o', dir], {
        timeout: 90_000,
      }).catch((error: unknown) => error);
      const checks = existsSync(dir) ? await checksUnder(dir) : undefined;
      if (checks !== undefined) results.set(scenario, checks);
    });
  }, 600_000);
  afterAll(async () => {
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  for (const [scenario, expected] of Object.entries(CLIENT_SCENARIOS)) {
    it(`client scenario ${scenario}`, () => {
      const checks = (results.get(scenario) ?? []).filter((check) => check.status !== 'INFO');
      expect(checks.length, `the suite wrote no checks for ${scenario}`).toBe(expected.total);
      const failing = checks.filter((check) => check.status !== 'SUCCESS').map((check) => check.id);
      expect(failing.sort()).toEqual([...(expected.failing ?? [])].sort());
      expect(checks.filter((check) => check.status === 'SUCCESS').length).toBe(expected.passed);
    });
  }

  it('passes at least 90 % of all client checks', () => {
    const all = [...results.values()].flat().filter((check) => check.status !== 'INFO');
    const passed = all.filter((check) => check.status === 'SUCCESS').length;
    expect(all.length).toBe(278);
    expect(passed).toBe(272);
    expect(passed / all.length).toBeGreaterThanOrEqual(0.9);
  });
});
