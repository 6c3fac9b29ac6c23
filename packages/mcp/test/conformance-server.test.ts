import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSession } from '@toolcircuit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpCatalogueServer, serveCatalogue, serveCatalogueHttp } from '../src/index.js';
import {
  conformanceCatalogue,
  conformancePrompts,
  conformanceResources,
  conformanceResourceTemplates,
} from './conformance-catalogue.js';

const suite = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const run = promisify(execFile);

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

describe('MCP conformance suite, server side', () => {
  let http: HttpCatalogueServer;
  let output: string;
  const results = new Map<string, Check[]>();

  beforeAll(async () => {
    output = await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-conformance-server-'));
    const served = serveCatalogue(conformanceCatalogue, {
      sessionFor: () => createSession({ id: 'conformance', humanId: 'conformance-suite' }),
      resources: conformanceResources,
      resourceTemplates: conformanceResourceTemplates,
      prompts: conformancePrompts,
    });
    http = await serveCatalogueHttp(served);
    await run(process.execPath, [suite, 'server', '--url', http.url.href, '--suite', 'all', '-o', output], {
      timeout: 240_000,
    }).catch((error: unknown) => error);
    for (const dir of await readdir(output)) {
      const scenario = /^server-(.+)-\d{4}-/.exec(dir)?.[1];
      if (scenario === undefined) continue;
      results.set(scenario, JSON.parse(await readFile(join(output, dir, 'checks.json'), 'utf8')) as Check[]);
    }
  }, 300_000);
  afterAll(async () => {
    await http?.close();
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it('baseline', () => {
    let passed = 0;
    let total = 0;
    for (const [scenario, checks] of [...results].sort()) {
      const scored = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE' || c.status === 'WARNING');
      const ok = scored.filter((c) => c.status === 'SUCCESS');
      passed += ok.length;
      total += scored.length;
      console.log(
        `${scenario}: ${ok.length}/${scored.length} ${scored
          .filter((c) => c.status !== 'SUCCESS')
          .map((c) => `${c.id}[${c.status}]: ${c.errorMessage}`)
          .join(' | ')}`,
      );
    }
    console.log(`TOTAL ${passed}/${total}`);
    expect(total).toBeGreaterThan(0);
  });
});
