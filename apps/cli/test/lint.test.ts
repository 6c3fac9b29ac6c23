import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCatalogue, everySession } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { runBin } from './support/cli-process.js';

// The real tool-definition corpus, copied into the repository (fixtures/README.md says from where).
const CATALOGUES = fileURLToPath(new URL('../../../fixtures/catalogues', import.meta.url));

interface LintJson {
  format: string;
  files: {
    file: string;
    tools: number;
    counts: { error: number; warning: number; note: number; byRule: Record<string, number> };
    findings: {
      rule: string;
      level: string;
      tool?: string;
      provider?: string;
      path?: string;
      message: string;
      otherTool?: string;
      score?: number;
      sharedTerms?: string[];
    }[];
  }[];
  totals: { files: number; error: number; warning: number; note: number; byRule: Record<string, number> };
}

async function lintJson(args: readonly string[]): Promise<{ code: number | null; report: LintJson; stderr: string }> {
  const { code, stdout, stderr } = await runBin(['lint', ...args, '--format', 'json']);
  return { code, report: JSON.parse(stdout) as LintJson, stderr };
}

async function tempFile(name: string, content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-lint-'));
  const file = join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 1));
  return file;
}

/**
 * Counts from the rules computed by the CLI alone (not by the schema translator), pinned: a change here
 * is a change of what lint reports on real catalogues and must be deliberate.
 */
const EXPECTED: Record<string, Record<string, number>> = {
  'api_bank_openai_tools.json': {
    tools: 67,
    'duplicate-name': 0,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 13,
    'open-object': 1,
    'undocumented-property': 0,
    'no-out-of-scope': 66,
  },
  'bfcl.json': {
    tools: 818,
    'duplicate-name': 82,
    'missing-description': 0,
    'core-refuses': 818,
    'overlapping-descriptions': 1179,
    'open-object': 1,
    'undocumented-property': 3,
    'no-out-of-scope': 803,
  },
  'gorilla_openfunctions_v1.json': {
    tools: 112,
    'duplicate-name': 4,
    'missing-description': 0,
    'core-refuses': 109,
    'overlapping-descriptions': 12,
    'open-object': 1,
    'undocumented-property': 10,
    'no-out-of-scope': 112,
  },
  'mcp_github_mcp_server.json': {
    tools: 117,
    'duplicate-name': 0,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 26,
    'open-object': 1,
    'undocumented-property': 0,
    'no-out-of-scope': 109,
  },
  'mcp_livemcpbench.json': {
    tools: 527,
    'duplicate-name': 13,
    'missing-description': 19,
    'core-refuses': 1,
    'overlapping-descriptions': 69,
    'open-object': 1,
    'undocumented-property': 790,
    'no-out-of-scope': 456,
  },
  'mcp_mcpbench.json': {
    tools: 257,
    'duplicate-name': 2,
    'missing-description': 7,
    'core-refuses': 0,
    'overlapping-descriptions': 111,
    'open-object': 1,
    'undocumented-property': 317,
    'no-out-of-scope': 231,
  },
  'mcp_notion.json': {
    tools: 24,
    'duplicate-name': 0,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 8,
    'open-object': 1,
    'undocumented-property': 541,
    'no-out-of-scope': 24,
  },
  'mcp_reference_servers.json': {
    tools: 55,
    'duplicate-name': 0,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 3,
    'open-object': 1,
    'undocumented-property': 45,
    'no-out-of-scope': 42,
  },
  'mcp_reference_servers_archived.json': {
    tools: 69,
    'duplicate-name': 8,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 13,
    'open-object': 1,
    'undocumented-property': 58,
    'no-out-of-scope': 68,
  },
  'stabletoolbench_rapidapi_converted.json': {
    tools: 300,
    'duplicate-name': 0,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 12,
    'open-object': 1,
    'undocumented-property': 318,
    'no-out-of-scope': 295,
  },
  'toolbench_openai_functions.json': {
    tools: 56,
    'duplicate-name': 1,
    'missing-description': 0,
    'core-refuses': 0,
    'overlapping-descriptions': 13,
    'open-object': 1,
    'undocumented-property': 28,
    'no-out-of-scope': 52,
  },
};

describe('toolcircuit lint on every shared catalogue', () => {
  // Lints 2,456 real tools twice, in child processes: seconds alone, longer on a machine busy with other suites.
  it('completes on every file, with stable finding counts', async () => {
    const files = (await readdir(CATALOGUES)).filter((name) => name.endsWith('.json')).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    const paths = files.map((name) => join(CATALOGUES, name));
    const first = await lintJson([...paths, '--fail-on', 'none']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.report.totals.files).toBe(files.length);

    const summary = Object.fromEntries(
      first.report.files.map((file) => [
        file.file.slice(CATALOGUES.length + 1),
        {
          tools: file.tools,
          ...Object.fromEntries(
            Object.keys(EXPECTED['bfcl.json'] ?? {})
              .filter((key) => key !== 'tools')
              .map((rule) => [rule, file.counts.byRule[rule] ?? -1]),
          ),
        },
      ]),
    );
    expect(summary).toEqual(EXPECTED);

    for (const file of first.report.files) {
      // Every real catalogue has open objects (said once per file, with its cost) and descriptions without
      // an out-of-scope phrase.
      expect(file.counts.byRule['open-object']).toBe(1);
      expect(file.counts.byRule['no-out-of-scope']).toBeGreaterThan(0);
      // Counts add up: per level = per rule.
      const byRule = Object.values(file.counts.byRule).reduce((a, b) => a + b, 0);
      expect(file.counts.error + file.counts.warning + file.counts.note).toBe(byRule);
      expect(file.findings).toHaveLength(byRule);
    }
    const bfcl = first.report.files.find((file) => file.file.endsWith('/bfcl.json'));
    const renames = (provider: string) =>
      bfcl?.findings.filter((f) => f.rule === 'provider-renames' && f.provider === provider).length ?? 0;
    // BFCL's dotted names (math.factorial) are invalid for OpenAI and Anthropic; Gemini accepts dots.
    expect(renames('openai')).toBeGreaterThan(200);
    expect(renames('anthropic')).toBe(renames('openai'));
    expect(renames('gemini')).toBeLessThan(renames('openai'));
    // Every BFCL root is "dict": each provider receives it rewritten.
    expect(bfcl?.counts.byRule['provider-rewrites']).toBeGreaterThanOrEqual(818);
    const gorilla = first.report.files.find((file) => file.file.endsWith('/gorilla_openfunctions_v1.json'));
    expect(
      gorilla?.findings.filter((f) => f.rule === 'provider-renames' && f.provider === 'gemini').length,
    ).toBeGreaterThan(0);

    // Stable: a second run reports exactly the same findings.
    const second = await lintJson([...paths, '--fail-on', 'none']);
    expect(second.report).toEqual(first.report);
  }, 180_000);

  it('the default --fail-on error exits 1 on a real catalogue with errors (duplicate names)', async () => {
    const { code, stdout } = await runBin(['lint', join(CATALOGUES, 'bfcl.json')]);
    expect(code).toBe(1);
    // 82 duplicate names, and 818 BFCL roots typed "dict" that createCatalogue refuses as they are.
    expect(stdout).toMatch(/900 error\(s\)/);
  }, 60_000);
});

describe('toolcircuit lint findings', () => {
  const MCP_LIST = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      tools: [
        {
          name: 'search_flights',
          description: 'Search available flights between two airports for a travel date and return fares.',
          inputSchema: {
            type: 'object',
            properties: { from: { type: 'string', description: 'IATA code' }, to: { type: 'string' } },
            additionalProperties: false,
          },
        },
        {
          name: 'find_flights',
          description: 'Find available flights between two airports on a travel date, with fares.',
          inputSchema: {
            type: 'object',
            properties: { route: { type: 'object', properties: { from: { type: 'string', description: 'IATA' } } } },
            additionalProperties: false,
          },
        },
        {
          name: 'book.hotel',
          description: 'Book a hotel room. Do not use for flights.',
          inputSchema: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City' } },
            additionalProperties: false,
          },
        },
      ],
    },
  };

  it('reads MCP tools/list output and reports overlap, open objects, undocumented properties, renames', async () => {
    const file = await tempFile('mcp.json', MCP_LIST);
    const { code, report } = await lintJson([file, '--provider', 'openai', '--provider', 'gemini']);
    expect(code).toBe(0);
    const [result] = report.files;
    expect(result?.tools).toBe(3);
    const overlap = result?.findings.find((f) => f.rule === 'overlapping-descriptions');
    expect(overlap).toMatchObject({ tool: 'search_flights', otherTool: 'find_flights', level: 'warning' });
    expect(overlap?.score).toBeGreaterThanOrEqual(0.7);
    // Strongest shared terms first (ties by name), at most 6; "flight" is also in the third tool, so it weighs less.
    expect(overlap?.sharedTerms).toEqual(['airport', 'available', 'date', 'fare', 'travel', 'two']);
    expect(result?.findings.filter((f) => f.rule === 'open-object').map((f) => [f.tool, f.path])).toEqual([
      ['find_flights', '/properties/route'],
    ]);
    expect(result?.findings.find((f) => f.rule === 'open-object')?.message).toMatch(
      /^1 object schema\(s\) in 1 of 3 tool\(s\) allow .* Cost: on openai-strict such an object is closed/,
    );
    expect(result?.findings.filter((f) => f.rule === 'undocumented-property').map((f) => [f.tool, f.path])).toEqual([
      ['search_flights', '/properties/to'],
      ['find_flights', '/properties/route'],
    ]);
    expect(result?.findings.filter((f) => f.rule === 'no-out-of-scope').map((f) => f.tool)).toEqual([
      'search_flights',
      'find_flights',
    ]);
    expect(result?.findings.filter((f) => f.rule === 'provider-renames').map((f) => [f.tool, f.provider])).toEqual([
      ['book.hotel', 'openai'],
    ]);
    expect(result?.findings.find((f) => f.rule === 'provider-renames')?.message).toContain(
      '"book.hotel" → "book_hotel"',
    );
  });

  it('reads OpenAI and Anthropic tool arrays; --fail-on sets the exit code', async () => {
    const openai = await tempFile('openai.json', [
      {
        type: 'function',
        function: {
          name: 'get_time',
          description: 'Current time in a timezone. Only IANA names.',
          parameters: {
            type: 'object',
            properties: { tz: { type: 'string', description: 'IANA zone' } },
            required: ['tz'],
          },
        },
      },
    ]);
    const anthropic = await tempFile('anthropic.json', [
      {
        name: 'get_time',
        description: '',
        input_schema: { type: 'object', properties: {}, additionalProperties: false },
      },
    ]);
    const clean = await lintJson([openai]);
    expect(clean.code).toBe(0);
    expect(clean.report.files[0]?.counts.byRule['open-object']).toBe(1);
    expect((await runBin(['lint', openai, '--fail-on', 'warning'])).code).toBe(1);
    expect((await runBin(['lint', openai, '--fail-on', 'none'])).code).toBe(0);
    const empty = await lintJson([anthropic]);
    expect(empty.code).toBe(1);
    expect(empty.report.files[0]?.findings.map((f) => f.rule)).toContain('missing-description');
  });

  it('reports schemas a provider cannot accept as errors', async () => {
    const file = await tempFile('bad.json', [
      {
        name: 'weird',
        description: 'Only for tests.',
        input_schema: {
          type: 'object',
          properties: { x: { type: 'weird', description: 'x' } },
          additionalProperties: false,
        },
      },
    ]);
    const { code, report } = await lintJson([file, '--provider', 'gemini']);
    expect(code).toBe(1);
    expect(report.files[0]?.findings).toEqual([
      expect.objectContaining({ rule: 'core-refuses', level: 'error', tool: 'weird' }),
      expect.objectContaining({
        rule: 'provider-rejects',
        level: 'error',
        tool: 'weird',
        provider: 'gemini',
        path: '/properties/x/type',
      }),
    ]);
  });

  it('lints JS and TypeScript catalogue modules (the demo one is clean at the error level)', async () => {
    const demo = await lintJson(['dist/demo/demo-catalogue.js', '--fail-on', 'warning']);
    expect(demo.code).toBe(0);
    expect(demo.report.files[0]?.tools).toBe(3);
    expect(demo.report.files[0]?.counts.error).toBe(0);
    expect(demo.report.files[0]?.counts.byRule['no-out-of-scope']).toBe(0);
    expect(demo.report.files[0]?.counts.byRule['overlapping-descriptions']).toBe(0);
    const array = await lintJson(['test/fixtures/array-catalogue.mjs']);
    expect(array.report.files[0]?.tools).toBe(1);
    expect(array.report.files[0]?.counts).toMatchObject({ error: 0, warning: 0 });
    const typed = await lintJson(['test/fixtures/typed-catalogue.ts', '--provider', 'openai']);
    expect(typed.code).toBe(0);
    expect(typed.report.files[0]?.findings.map((f) => f.rule).sort()).toEqual([
      'open-object',
      'provider-renames',
      'undocumented-property',
    ]);
  });

  it('SARIF 2.1.0: rules with levels, results pointing at the file and the tool', async () => {
    const file = await tempFile('mcp.json', MCP_LIST);
    const { code, stdout } = await runBin(['lint', file, '--format', 'sarif']);
    expect(code).toBe(0);
    const sarif = JSON.parse(stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toContain('sarif-2.1.0');
    const [run] = sarif.runs;
    const rules = run.tool.driver.rules as { id: string; defaultConfiguration: { level: string } }[];
    expect(rules.map((rule) => rule.id)).toContain('overlapping-descriptions');
    for (const result of run.results) {
      expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(['error', 'warning', 'note']).toContain(result.level);
      expect(result.message.text).not.toBe('');
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(`file://${file}`);
    }
    const overlap = run.results.find((result: { ruleId: string }) => result.ruleId === 'overlapping-descriptions');
    expect(overlap.locations[0].logicalLocations[0]).toMatchObject({ name: 'search_flights', kind: 'function' });
    expect(overlap.properties).toMatchObject({ otherTool: 'find_flights' });
    const inside = JSON.parse(
      (await runBin(['lint', 'test/fixtures/array-catalogue.mjs', '--format', 'sarif', '--fail-on', 'none'])).stdout,
    );
    expect(inside.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      'test/fixtures/array-catalogue.mjs',
    );
  });
});

describe('one verdict: lint and createCatalogue', () => {
  /** Schemas createCatalogue refuses that lint used to call clean. */
  const REFUSED: Record<string, Record<string, unknown>> = {
    minimum_not_a_number: { type: 'object', properties: { n: { type: 'integer', minimum: 'three' } } },
    invalid_pattern: { type: 'object', properties: { s: { type: 'string', pattern: '([a-z' } } },
    empty_enum: { type: 'object', properties: { e: { enum: [] } } },
    empty_all_of: { type: 'object', allOf: [] },
    unresolvable_ref: { type: 'object', properties: { r: { $ref: '#/$defs/missing' } } },
    unknown_draft: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' },
  };
  const toolsOf = (schemas: Record<string, Record<string, unknown>>) =>
    Object.entries(schemas).map(([name, schema]) => ({
      name,
      description: `Only for tests: ${name}.`,
      input_schema: schema,
    }));

  it("every schema createCatalogue refuses is a lint error with core's own message, and lint exits 1", async () => {
    for (const tool of toolsOf(REFUSED)) {
      const file = await tempFile(`${tool.name}.json`, [tool]);
      const { code, report } = await lintJson([file, '--provider', 'anthropic']);
      expect(code, tool.name).toBe(1);
      const core = createCatalogue(
        [
          {
            name: tool.name,
            description: tool.description,
            inputSchema: tool.input_schema as never,
            right: everySession,
            irreversible: false,
            run: () => undefined,
          },
        ],
        { mode: 'lenient' },
      ).refused[0]?.error.message;
      expect(core, tool.name).toBeDefined();
      expect(report.files[0]?.findings.filter((f) => f.rule === 'core-refuses').map((f) => f.message)).toEqual([core]);
    }
  });

  it('a blank description is an error in both, and a broken schema behind it is still reported', async () => {
    const file = await tempFile('blank.json', [
      { name: 'blank', description: ' ', input_schema: REFUSED['empty_enum'] },
    ]);
    const { code, report } = await lintJson([file, '--provider', 'anthropic']);
    expect(code).toBe(1);
    const rules = report.files[0]?.findings.map((f) => f.rule);
    expect(rules).toContain('missing-description');
    expect(rules).toContain('core-refuses');
    expect(report.files[0]?.findings.find((f) => f.rule === 'missing-description')?.message).toMatch(
      /non-empty string/,
    );
  });

  it('--rule and the config file set severities; --quiet keeps errors; a per-rule summary line closes each file', async () => {
    const file = await tempFile('tools.json', toolsOf({ empty_enum: REFUSED['empty_enum'] ?? {} }));
    const off = await lintJson([file, '--rule', 'core-refuses=off', '--rule', 'no-out-of-scope=error']);
    expect(off.report.files[0]?.findings.some((f) => f.rule === 'core-refuses')).toBe(false);
    expect(off.report.files[0]?.findings.filter((f) => f.level === 'error').map((f) => f.rule)).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-lint-config-'));
    await writeFile(
      join(dir, 'toolcircuit.config.json'),
      JSON.stringify({ lint: { rules: { 'core-refuses': 'warn' } } }),
    );
    const warned = await runBin(['lint', file, '--config', join(dir, 'toolcircuit.config.json'), '--format', 'json']);
    expect(warned.code).toBe(0);
    const flagWins = await runBin([
      'lint',
      file,
      '--config',
      join(dir, 'toolcircuit.config.json'),
      '--rule',
      'core-refuses=error',
    ]);
    expect(flagWins.code).toBe(1);
    const quiet = await runBin(['lint', file, '--quiet']);
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toMatch(/1 error\(s\), 0 warning\(s\), 0 note\(s\)/);
    expect(quiet.stdout).toMatch(/by rule: core-refuses 1\n/);
    const unknown = await runBin(['lint', file, '--rule', 'no-such-rule=off']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown lint rule "no-such-rule"');
  });

  it('a root union is no longer narrowed; a provider narrowing is a warning that names the inputs', async () => {
    const variant = (type: string, extra: Record<string, unknown>) => ({
      type: 'object',
      properties: { type: { const: type }, name: { type: 'string', description: 'n' }, ...extra },
      required: ['type', 'name'],
      additionalProperties: false,
    });
    const file = await tempFile('union.json', [
      {
        name: 'create_record',
        description: 'Create a DNS record. Only for zones you own.',
        input_schema: {
          type: 'object',
          oneOf: [
            variant('A', { content: { type: 'string', description: 'IPv4' } }),
            variant('MX', { priority: { type: 'integer', description: 'p' } }),
          ],
        },
      },
      {
        name: 'tag_host',
        description: 'Tag a host. Only for hosts you own.',
        input_schema: {
          type: 'object',
          properties: { host: { description: 'host', properties: { name: { type: 'string', description: 'n' } } } },
          additionalProperties: false,
        },
      },
    ]);
    const { code, report } = await lintJson([file, '--provider', 'gemini', '--provider', 'openai-strict']);
    const narrows = report.files[0]?.findings.filter((f) => f.rule === 'provider-narrows') ?? [];
    // Gemini's JSON Schema dialect infers the type too, so no looser dialect keeps `host` whole there.
    expect(narrows.map((f) => [f.tool, f.provider])).toEqual([['tag_host', 'gemini']]);
    expect(narrows[0]).toMatchObject({ level: 'warning', path: '/properties/host' });
    expect(narrows[0]?.message).toContain('values at the object at /properties/host that are not object');
    // On openai-strict the tool goes with strict: false and its faithful schema instead: a warning that says
    // why and what it costs, never an error.
    const fallback = report.files[0]?.findings.filter((f) => f.rule === 'provider-fallback') ?? [];
    expect(fallback.map((f) => [f.tool, f.provider, f.level])).toEqual([['tag_host', 'openai-strict', 'warning']]);
    expect(fallback[0]?.message).toMatch(/^Sent with strict: false on openai-strict: openai-strict would lose/);
    expect(fallback[0]?.message).toContain('/properties/host inferred-type');
    expect(fallback[0]?.message).toContain("strict mode's guarantee that the arguments match the schema is lost");
    expect(code).toBe(0);
    // The root union is a rewrite (looser, the executor checks the variants), never a narrowing.
    const union = report.files[0]?.findings.filter((f) => f.tool === 'create_record' && f.rule === 'provider-rewrites');
    expect(union?.map((f) => f.message).join(' ')).toContain('root oneOf merged into one object');
  });

  it('names each tool that goes without strict mode, and why; an object that only omits additionalProperties is no reason', async () => {
    const file = await tempFile('fallbacks.json', [
      {
        name: 'search_files',
        description: 'Search case files by text. Not for one file by its number.',
        input_schema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'q' },
            lang: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, description: 'l' },
            filter: { type: 'object', description: 'f', properties: { tag: { type: 'string', description: 't' } } },
          },
          required: ['query'],
        },
      },
      {
        name: 'set_labels',
        description: 'Set the labels of a case file. Not for its status.',
        input_schema: {
          type: 'object',
          properties: { numero: { type: 'string', description: 'n' } },
          required: ['numero'],
          additionalProperties: { type: 'string' },
        },
      },
      {
        name: 'emulate_media',
        description: 'Emulate a colour scheme. Not for printing.',
        input_schema: {
          type: 'object',
          properties: { scheme: { type: ['string', 'null'], description: 'null resets it' } },
          additionalProperties: false,
        },
      },
    ]);
    const { report } = await lintJson([file, '--provider', 'openai-strict']);
    const fallback = report.files[0]?.findings.filter((f) => f.rule === 'provider-fallback') ?? [];
    expect(fallback.map((f) => [f.tool, f.level])).toEqual([
      ['set_labels', 'warning'],
      ['emulate_media', 'warning'],
    ]);
    expect(fallback[0]?.message).toContain('(root) closed-object: keys the root declares no property for');
    expect(fallback[1]?.message).toContain('an explicit null for "scheme" arrives as "scheme" omitted');
    for (const finding of fallback) expect(finding.message).toContain("strict mode's guarantee");
  });
});

describe('toolcircuit lint input errors (exit 2)', () => {
  it.each([
    { label: 'no file', args: [], expected: 'no catalogue file given' },
    { label: 'missing file', args: ['nope.json'], expected: 'does not exist' },
    {
      label: 'unknown provider',
      args: ['package.json', '--provider', 'mistral'],
      expected: 'unknown provider "mistral"',
    },
    {
      label: 'bad format',
      args: ['package.json', '--format', 'xml'],
      expected: '--format must be one of human, json, sarif',
    },
    {
      label: 'bad threshold',
      args: ['package.json', '--overlap-threshold', '2'],
      expected: '--overlap-threshold must be',
    },
    { label: 'not a tool list', args: ['test/fixtures/not-a-catalogue.json'], expected: 'expected an array of tools' },
    {
      label: 'a tool the catalogue refuses',
      args: ['test/fixtures/invalid-tool.mjs'],
      expected: 'it states no `right`',
    },
    {
      label: 'a module without a catalogue',
      args: ['test/fixtures/no-catalogue.mjs'],
      expected: 'exports no catalogue',
    },
  ])('$label', async ({ args, expected }) => {
    const { code, stderr } = await runBin(['lint', ...args]);
    expect(stderr).toContain(expected);
    expect(code).toBe(2);
  });

  it('invalid JSON names the file', async () => {
    const file = await tempFile('broken.json', '[{"name": ');
    const { code, stderr } = await runBin(['lint', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`catalogue ${file} is not valid JSON`);
  });
});
