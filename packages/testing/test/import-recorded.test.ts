import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  defaultSourceDirectory,
  type ImportResult,
  importRecorded,
  staleFiles,
  writeImport,
} from '../src/import/import-recorded.js';
import { SOURCE_GROUPS } from '../src/import/source-file.js';
import { readSourceManifest, type SourceEntry } from '../src/import/source-manifest.js';
import { cassettesDirectory, listCassettes, loadCassette, loadCassetteIndex, SCRUBBED } from '../src/index.js';

// The real recorded traffic (read-only); TOOLCIRCUIT_RECORDED_DIR overrides where it lives.
const source = defaultSourceDirectory();
const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

let manifest: SourceEntry[];
let result: ImportResult;
// Converts every recorded file: about a second alone, much longer on a machine busy with other suites.
beforeAll(() => {
  manifest = readSourceManifest(source);
  result = importRecorded(source);
}, 120_000);

describe('import of fixtures/recorded', () => {
  it('accounts for every recorded file: a cassette, or an INDEX entry with a reason', () => {
    const onDisk = SOURCE_GROUPS.flatMap((group) => readdirSync(join(source, group)).map((name) => `${group}/${name}`));
    expect(onDisk.length).toBe(manifest.length);
    expect(new Set(onDisk)).toEqual(new Set(manifest.map((entry) => entry.dest)));

    const index = loadCassetteIndex();
    expect(index.entries.map((entry) => entry.sourceFile).sort()).toEqual([...onDisk].sort());
    const committed = new Set(listCassettes());
    for (const entry of index.entries) {
      if (entry.cassette === null) {
        expect(entry.skipReason, entry.sourceFile).toMatch(/\S/);
      } else {
        expect(committed.has(entry.cassette), entry.sourceFile).toBe(true);
      }
    }
    // Nothing else hides in the folder: every committed cassette comes from one recorded file.
    expect(committed.size).toBe(index.entries.filter((entry) => entry.cassette !== null).length);
  });

  it("gives each cassette its source file's sha256, and sources.json agrees", () => {
    const bySource = new Map(manifest.map((entry) => [entry.dest, entry]));
    for (const name of listCassettes()) {
      const { provenance } = loadCassette(name);
      if (provenance.kind !== 'imported') throw new Error(`${name} is ${provenance.kind}, expected imported`);
      expect(sha256Of(join(source, provenance.sourceFile)), name).toBe(provenance.sha256);
      const entry = bySource.get(provenance.sourceFile);
      expect(entry?.sha256, name).toBe(provenance.sha256);
      expect(provenance).toMatchObject({ repo: entry?.repo, path: entry?.path, commit: entry?.commit });
      for (const companion of provenance.companionFiles ?? []) {
        expect(sha256Of(join(source, companion.sourceFile))).toBe(companion.sha256);
      }
    }
  });

  it('matches the committed cassettes exactly, and a second run gives the same bytes', () => {
    expect(staleFiles(result, cassettesDirectory())).toEqual([]);
    const again = importRecorded(source);
    expect([...again.files.entries()]).toEqual([...result.files.entries()]);
  });

  it("counts the same tool calls per response as the collector's verified summaries", () => {
    const bySource = new Map(manifest.map((entry) => [entry.dest, entry]));
    for (const entry of result.index.entries) {
      if (entry.cassette === null) continue;
      const verified = bySource.get(entry.sourceFile)?.verified_summary ?? [];
      const expected = verified.map((line) => Number(/calls=(\d+)/.exec(line)?.[1]));
      const counted = (entry.responses ?? []).map((response) => response.toolCalls);
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      // One verified line per response, except where the collector summed a multi-stream file in one line.
      if (expected.length === counted.length) expect(counted, entry.sourceFile).toEqual(expected);
      else expect(sum(counted), entry.sourceFile).toBe(sum(expected));
      const statuses = verified.map((line) => /^(\d{3}) /.exec(line)?.[1]).filter((status) => status !== undefined);
      if (statuses.length > 0) {
        expect(
          (entry.responses ?? []).map((response) => String(response.status)),
          entry.sourceFile,
        ).toEqual(statuses);
      }
    }
  });

  it('keeps raw SSE files byte-exact as text bodies, closing an unterminated last event and saying so', () => {
    const raw = manifest.filter((entry) => entry.dest.endsWith('.txt') && !entry.dest.endsWith('.chunks.txt'));
    expect(raw.length).toBeGreaterThan(0);
    const closed: string[] = [];
    for (const entry of raw) {
      const cassette = loadCassette(entry.dest.replace(/\.txt$/, ''));
      expect(cassette.interactions).toHaveLength(1);
      const body = cassette.interactions[0]?.response.body;
      const text = readFileSync(join(source, entry.dest), 'utf8');
      if (/(\r\n\r\n|\n\n)$/.test(text)) {
        expect(body, entry.dest).toEqual({ kind: 'text', text });
      } else {
        closed.push(entry.dest);
        expect(body, entry.dest).toEqual({ kind: 'text', text: `${text}\n\n` });
        expect(cassette.provenance.note).toContain('plus the blank line that ends the last event');
      }
    }
    // The two anthropic-sdk-python files stop right after message_stop's data line.
    expect(closed.sort()).toEqual([
      'anthropic/anthropic-sdk-python__incomplete_partial_json_response.txt',
      'anthropic/anthropic-sdk-python__tool_use_response.txt',
    ]);
  });

  it('keeps VCR body.string streams byte-exact (CRLF framing included)', () => {
    const cassette = loadCassette('gemini/pydantic-ai__test_google_model_iter_stream');
    const vcr = parse(readFileSync(join(source, 'gemini/pydantic-ai__test_google_model_iter_stream.yaml'), 'utf8'));
    const recorded = (vcr.interactions as { response: { body: { string: string } } }[]).map(
      (interaction) => interaction.response.body.string,
    );
    expect(recorded[0]).toContain('\r\n\r\n');
    expect(cassette.interactions.map((interaction) => interaction.response.body)).toEqual(
      recorded.map((text) => ({ kind: 'text', text })),
    );
    expect(cassette.interactions[0]?.request.query).toEqual({ alt: 'sse' });
  });

  it('turns each data line into one event, named after its type for Anthropic and Responses', () => {
    const chunks = manifest.filter((entry) => entry.dest.endsWith('.chunks.txt'));
    for (const entry of chunks) {
      const cassette = loadCassette(entry.dest.replace(/\.txt$/, ''));
      const lines = readFileSync(join(source, entry.dest), 'utf8').replace(/\n$/, '').split('\n');
      const events = cassette.interactions.flatMap((interaction) =>
        interaction.response.body.kind === 'sse' ? interaction.response.body.events : [],
      );
      expect(
        events.map((event) => event.data),
        entry.dest,
      ).toEqual(lines);
      const named = cassette.protocol === 'anthropic-messages' || cassette.protocol === 'openai-responses';
      for (const event of events) expect(event.event).toBe(named ? JSON.parse(event.data).type : undefined);
      if (cassette.protocol === 'gemini') {
        expect(cassette.interactions[0]?.request.path).toMatch(/^\/v1beta\/models\/[^/]+:streamGenerateContent$/);
        expect(cassette.interactions[0]?.request.query).toEqual({ alt: 'sse' });
      }
    }
    // Four response streams in one file were four HTTP responses.
    expect(
      loadCassette('openai-responses/vercel-ai__openai-reasoning-encrypted-content.1.chunks').interactions,
    ).toHaveLength(4);
  });

  it('states the status of body-only errors, and says whether it was inferred', () => {
    const openai = loadCassette('openai-responses/vercel-ai__openai-error.1');
    expect(openai.interactions[0]?.response.status).toBe(429);
    expect(openai.provenance.note).toContain('HTTP status 429 inferred from error.code "insufficient_quota"');
    const anthropic = loadCassette('anthropic/vercel-ai__anthropic-root-union-tool-schema-error');
    expect(anthropic.interactions[0]?.response.status).toBe(400);
    expect(anthropic.provenance.note).toContain('inferred from error.type "invalid_request_error"');
    expect(anthropic.provenance.note).toContain('index-only');
    const gemini = loadCassette('gemini/vercel-ai__google-429-retry-info');
    expect(gemini.interactions[0]?.response.status).toBe(429);
    expect(gemini.provenance.note).toContain("taken from the body's error.code");
  });

  it("puts Gemini's modelVersion in the path, or the documented default and says so", () => {
    expect(loadCassette('gemini/vercel-ai__google-tool-call').interactions[0]?.request.path).toBe(
      '/v1beta/models/gemini-3-pro-preview:generateContent',
    );
    const trimmed = loadCassette('gemini/vertexai-sdk-test-data__unary-success-function-call-parallel-calls');
    expect(trimmed.model).toBe('gemini-flash-latest');
    expect(trimmed.interactions[0]?.request.path).toBe('/v1beta/models/gemini-flash-latest:generateContent');
    expect(trimmed.provenance.note).toContain('names no model');
  });

  it('keeps the recorded request bodies', () => {
    const cassette = loadCassette('anthropic/pydantic-ai__test_multiple_parallel_tool_calls');
    const second = cassette.interactions[1]?.request.body as { messages: { content: { type: string }[] }[] };
    expect(second.messages.at(-1)?.content.map((block) => block.type)).toEqual([
      'tool_result',
      'tool_result',
      'tool_result',
      'tool_result',
    ]);
    expect(loadCassette('anthropic/anthropic-sdk-typescript__ToolRunner').interactions[0]?.request).toMatchObject({
      path: '/v1/messages',
      query: { beta: 'true' },
      body: { model: 'claude-opus-4-8' },
    });
  });

  it('reads llm-gemini bodies from the DERIVED copies and lists those copies with a reason', () => {
    const cassette = loadCassette('gemini/llm-gemini__test_tools');
    const derived = JSON.parse(
      readFileSync(join(source, 'gemini/llm-gemini__test_tools.DERIVED-decoded-bodies.json'), 'utf8'),
    ) as { body: string }[];
    expect(cassette.interactions.map((interaction) => interaction.response.body)).toEqual(
      derived.map(({ body }) => ({ kind: 'text', text: body })),
    );
    expect(cassette.provenance.note).toContain('DERIVED');
    const entries = loadCassetteIndex().entries;
    const companion = entries.find((entry) =>
      entry.sourceFile.endsWith('llm-gemini__test_tools.DERIVED-decoded-bodies.json'),
    );
    expect(companion).toMatchObject({ cassette: null });
    expect(companion?.skipReason).toContain('gemini/llm-gemini__test_tools');
    const parent = entries.find((entry) => entry.cassette === 'gemini/llm-gemini__test_tools');
    expect(parent?.skipReason).toContain('without alt=sse');
  });

  it('leaves no credential, cookie or account id in any cassette', async () => {
    // Values present in the sources' headers; the importer must have scrubbed them.
    const leaked = ['_cfuvid=', '__cf_bm=', 'proj_dKobscVY9YJxeEaDJen54e3d', 'pydantic-28gund'];
    for (const name of listCassettes()) {
      const text = await readFile(join(cassettesDirectory(), `${name}.json`), 'utf8');
      for (const value of leaked) expect(text.includes(value), `${name} holds ${value}`).toBe(false);
    }
    const dbos = loadCassette('openai-chat/pydantic-ai__test_dbos__test_dbos_agent_with_hitl_tool');
    expect(dbos.interactions[0]?.response.headers['openai-organization']).toBe(SCRUBBED);
    expect(dbos.interactions[1]?.request.headers?.['cookie']).toBe(SCRUBBED);
  });
});

describe('writeImport', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolcircuit-import-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes every file, removes imported cassettes whose source is gone, and keeps recorded ones', async () => {
    await mkdir(join(folder, 'anthropic'), { recursive: true });
    const stale = { format: 'toolcircuit-cassette/1', provenance: { kind: 'imported' } };
    const mine = { format: 'toolcircuit-cassette/1', provenance: { kind: 'recorded', recordedAt: 'x' } };
    await writeFile(join(folder, 'anthropic', 'gone.json'), JSON.stringify(stale));
    await writeFile(join(folder, 'anthropic', 'mine.json'), JSON.stringify(mine));
    const outcome = await writeImport(result, folder);
    expect(outcome.removed).toEqual(['anthropic/gone.json']);
    expect(outcome.written).toBe(result.files.size);
    const names = await readdir(join(folder, 'anthropic'));
    expect(names).toContain('mine.json');
    expect(names).not.toContain('gone.json');
    expect(staleFiles(result, folder)).toEqual([]);
  });
});
