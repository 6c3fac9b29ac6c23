import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { runBin, startBin } from './support/cli-process.js';
import { DEMO_CASSETTES, demoCassette } from './support/demo-cassettes.js';

const CASSETTE = 'cassettes/demo/openai-chat.json';

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('toolcircuit replay', () => {
  it('serves the cassette in order and stops once it is all served (exit 0)', async () => {
    const replay = startBin(['replay', CASSETTE, '--exit-when-done']);
    const [, base] = await replay.line(/^base URL: (\S+)$/m);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const expected = demoCassette('openai-chat').interactions.map((interaction) => interaction.response.body);
    for (const body of expected) {
      const response = await post(`${base}/chat/completions`, { model: 'gpt-5-mini', messages: [] });
      expect(response.status).toBe(200);
      expect({ kind: 'json', json: await response.json() }).toEqual(body);
    }
    const { code, stdout, stderr } = await replay.done;
    expect(stderr).toBe('');
    expect(stdout).toContain('served 3/3 interaction(s), 0 mismatch(es)');
    expect(code).toBe(0);
  });

  it('answers 599 to a request that does not match, reports it with a hint, stops there and exits 1', async () => {
    const replay = startBin(['replay', CASSETTE, '--exit-when-done']);
    const [, url] = await replay.line(/^url: (\S+)$/m);
    const wrong = await post(`${url}/v1/responses`, {});
    expect(wrong.status).toBe(599);
    const { code, stderr, stdout } = await replay.done;
    expect(stderr).toContain(
      'mismatch: request #1 POST /v1/responses: path /v1/responses ≠ recorded /v1/chat/completions',
    );
    expect(stderr).toMatch(/hint: .*another endpoint/);
    expect(stdout).toContain('served 0/3 interaction(s), 1 mismatch(es)');
    expect(stderr).toContain('not served: 3 interaction(s), the next being POST /v1/chat/completions');
    expect(code).toBe(1);
  });

  it('reports a stream asked of a cassette recorded without one as a mismatch, with the flag to use', async () => {
    const replay = startBin(['replay', CASSETTE, '--exit-when-done']);
    const [, base] = await replay.line(/^base URL: (\S+)$/m);
    const streamed = await post(`${base}/chat/completions`, { model: 'gpt-5-mini', messages: [], stream: true });
    expect(streamed.status).toBe(599);
    expect(((await streamed.json()) as { error: { hint: string } }).error.hint).toContain('--no-stream');
    const { code, stderr } = await replay.done;
    expect(stderr).toContain('the request asks for a stream, the recorded answer is a single JSON body');
    expect(stderr).toContain('hint: replay without streaming (toolcircuit run --no-stream)');
    expect(code).toBe(1);
  });

  it('fails --exit-when-done when interactions are left unserved (after --idle seconds without a request)', async () => {
    const replay = startBin(['replay', CASSETTE, '--exit-when-done', '--idle', '1']);
    const [, base] = await replay.line(/^base URL: (\S+)$/m);
    expect((await post(`${base}/chat/completions`, { model: 'gpt-5-mini', messages: [] })).status).toBe(200);
    const { code, stderr, stdout } = await replay.done;
    expect(stdout).toContain('served 1/3 interaction(s), 0 mismatch(es)');
    expect(stderr).toContain('not served: 2 interaction(s) (no request for 1s)');
    expect(code).toBe(1);
  });

  it('listens on --port, and refuses a port that is not a number (exit 2)', async () => {
    const port = await freePort();
    const replay = startBin(['replay', CASSETTE, '--exit-when-done', '--port', String(port), '--idle', '1']);
    const [, url] = await replay.line(/^url: (\S+)$/m);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await replay.done).code).toBe(1);
    const bad = await runBin(['replay', CASSETTE, '--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port must be a whole number');
  });

  it('refuses a missing file, invalid JSON and a file that is not a cassette (exit 2)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-replay-'));
    await writeFile(join(dir, 'broken.json'), '{"format": ');
    await writeFile(join(dir, 'other.json'), JSON.stringify({ format: 'something-else' }));
    const missing = await runBin(['replay', join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const broken = await runBin(['replay', join(dir, 'broken.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('is not JSON');
    const other = await runBin(['replay', join(dir, 'other.json')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('is not a valid toolcircuit-cassette/1');
    const noFile = await runBin(['replay']);
    expect(noFile.code).toBe(2);
  });
});

describe('toolcircuit record', () => {
  it('proxies to the target, writes the cassette after --count exchanges, with the key scrubbed', async () => {
    // The "real API" here is a local replay server: tests never reach a provider.
    const upstream = await startReplayServer(demoCassette('anthropic-messages'));
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-record-'));
    const out = join(dir, 'nested', 'recorded.json');
    try {
      const record = startBin([
        'record',
        '--target',
        upstream.url,
        '--protocol',
        'anthropic-messages',
        '--out',
        out,
        '--count',
        '1',
      ]);
      const [, base] = await record.line(/^base URL: (\S+)$/m);
      const key = 'sk-ant-recorder-secret-0123456789';
      const response = await post(
        `${base}/v1/messages`,
        { model: 'claude-haiku-5-5', max_tokens: 10, messages: [] },
        { 'x-api-key': key },
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe('msg_demo1');
      const { code, stdout } = await record.done;
      expect(code).toBe(0);
      expect(stdout).toContain('recorded 1 interaction(s)');
      const text = await readFile(out, 'utf8');
      expect(text).not.toContain(key);
      const cassette = JSON.parse(text);
      expect(cassette).toMatchObject({
        format: 'toolcircuit-cassette/1',
        protocol: 'anthropic-messages',
        model: 'claude-haiku-5-5',
        provenance: { kind: 'recorded' },
      });
      expect(upstream.received[0]?.headers['x-api-key']).toBe(key);
    } finally {
      await upstream.close();
    }
  });

  it.each([
    { label: 'no --target', args: ['record', '--out', 'x.json'], expected: 'no --target given' },
    { label: 'no --out', args: ['record', '--target', 'https://api.anthropic.com'], expected: 'no --out given' },
    { label: 'not a URL', args: ['record', '--target', 'api', '--out', 'x.json'], expected: 'is not a URL' },
    {
      label: 'unknown protocol of a host',
      args: ['record', '--target', 'https://api.openai.com', '--out', 'x.json'],
      expected: 'cannot tell the wire protocol of https://api.openai.com',
    },
    {
      label: 'bad --protocol',
      args: ['record', '--target', 'https://api.openai.com', '--out', 'x.json', '--protocol', 'chat'],
      expected: '--protocol must be one of anthropic-messages, openai-chat, openai-responses, gemini',
    },
  ])('$label exits 2', async ({ args, expected }) => {
    const { code, stderr } = await runBin(args);
    expect(stderr).toContain(expected);
    expect(code).toBe(2);
  });
});

it('the demo cassettes are all labelled synthetic', async () => {
  for (const name of ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini']) {
    const cassette = JSON.parse(await readFile(join(DEMO_CASSETTES, `${name}.json`), 'utf8'));
    expect(cassette.provenance.kind).toBe('synthetic');
    expect(cassette.provenance.note).toMatch(/^Synthetic:/);
  }
});
