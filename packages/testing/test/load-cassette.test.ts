import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CassetteFormatError,
  cassettesDirectory,
  listCassettes,
  loadCassette,
  loadCassetteIndex,
  validateCassette,
} from '../src/index.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CassetteFormatError);
    return (error as CassetteFormatError).problems;
  }
  throw new Error('expected a CassetteFormatError');
}

describe('loadCassette', () => {
  it('reads committed cassettes from the package, with or without the .json suffix', () => {
    expect(cassettesDirectory()).toBe(join(packageRoot, 'cassettes/'));
    const cassette = loadCassette('anthropic/vercel-ai__anthropic-tool-no-args.chunks');
    expect(cassette.protocol).toBe('anthropic-messages');
    expect(cassette.model).toBe('claude-sonnet-4-5-20250929');
    expect(cassette.provenance.kind).toBe('imported');
    expect(loadCassette('anthropic/vercel-ai__anthropic-tool-no-args.chunks.json')).toEqual(cassette);
  });

  it('names the file and suggests close names when a cassette does not exist', () => {
    const [problem] = problemsOf(() => loadCassette('anthropic/tool_use_response'));
    expect(problem).toContain(join(packageRoot, 'cassettes', 'anthropic', 'tool_use_response.json'));
    expect(problem).toContain('did you mean anthropic/anthropic-sdk-python__tool_use_response');
  });

  it('refuses names that leave the cassettes folder', () => {
    expect(problemsOf(() => loadCassette('../package'))[0]).toContain('relative name');
    expect(problemsOf(() => loadCassette('/etc/passwd'))[0]).toContain('relative name');
  });

  it('lists every committed cassette, and filters by protocol', () => {
    const all = listCassettes();
    const index = loadCassetteIndex();
    const indexed = index.entries.flatMap((entry) => (entry.cassette === null ? [] : [entry.cassette]));
    expect(all).toEqual([...indexed].sort());
    const gemini = listCassettes({ protocol: 'gemini' });
    expect(gemini.length).toBeGreaterThan(0);
    const indexedGemini = index.entries.filter((entry) => entry.protocol === 'gemini').flatMap((e) => e.cassette ?? []);
    expect(gemini).toEqual(indexedGemini.sort());
    for (const name of gemini) expect(loadCassette(name).protocol).toBe('gemini');
  });

  it('works from the built dist too (resolved from the module file, not the working directory)', () => {
    const script = `import { loadCassette, listCassettes } from ${JSON.stringify(join(packageRoot, 'dist/index.js'))};
      const c = loadCassette('gemini/vercel-ai__google-tool-call');
      process.stdout.write(JSON.stringify({ count: listCassettes().length, path: c.interactions[0].request.path }));`;
    // Run from / so a working-directory-relative lookup would fail.
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: '/',
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({
      count: listCassettes().length,
      path: '/v1beta/models/gemini-3-pro-preview:generateContent',
    });
  });
});

describe('validation', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolcircuit-cassettes-'));
    await mkdir(join(folder, 'bad'));
    await writeFile(join(folder, 'bad', 'not-json.json'), '{ nope');
    await writeFile(
      join(folder, 'bad', 'wrong.json'),
      JSON.stringify({
        format: 'toolcircuit-cassette/2',
        protocol: 'claude',
        provenance: {
          kind: 'imported',
          sourceFile: 'x',
          repo: 'r',
          path: 'p',
          commit: 'c',
          license: 'MIT',
          sha256: 'abc',
        },
        interactions: [
          {
            request: { method: 'post', path: 'v1/messages?x=1' },
            response: { status: 700, headers: { a: 1 }, body: { kind: 'sse', events: [{ data: 5 }] } },
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reports every problem with the JSON path of the field', () => {
    const problems = problemsOf(() => loadCassette('bad/wrong', { directory: folder }));
    expect(problems).toEqual([
      'format must be "toolcircuit-cassette/1", got "toolcircuit-cassette/2"',
      'protocol must be one of anthropic-messages, openai-chat, openai-responses, gemini, got "claude"',
      'provenance.sha256 must be 64 lower-case hex digits',
      'interactions[0].request.method must be an upper-case HTTP method, got "post"',
      'interactions[0].request.path must start with "/" and hold no query, got "v1/messages?x=1"',
      'interactions[0].response.status must be an integer 100..599, got 700',
      'interactions[0].response.headers.a must be a string, got 1',
      'interactions[0].response.body.events[0].data must be a string, got 5',
    ]);
  });

  it('says when a file is not JSON', () => {
    expect(problemsOf(() => loadCassette('bad/not-json', { directory: folder }))[0]).toMatch(/is not JSON/);
  });

  it('puts the source and the problems in the error message', () => {
    expect(() => validateCassette({ format: 'toolcircuit-cassette/1' }, 'inline')).toThrow(
      /cassette inline is not a valid toolcircuit-cassette\/1:\n {2}protocol must be one of/,
    );
  });

  it('requires the provenance fields of each kind', () => {
    const problems = problemsOf(() =>
      validateCassette(
        {
          format: 'toolcircuit-cassette/1',
          protocol: 'gemini',
          provenance: { kind: 'recorded' },
          interactions: [],
        },
        'inline',
      ),
    );
    expect(problems).toEqual([
      'provenance.recordedAt must be a non-empty string for kind "recorded", got nothing',
      'interactions must hold at least one interaction',
    ]);
  });
});
