import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, startBin } from './support/cli-process.js';

describe('toolcircuit trace open / trace serve', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolcircuit-trace-cmd-'));
    await writeFile(join(folder, 'run.jsonl'), '{"type":"trace","version":1,"producer":"test","at":0}\n');
    await writeFile(join(folder, 'journal.json'), '[]');
    await writeFile(join(folder, 'notes.txt'), 'not a trace');
    await writeFile(join(folder, 'secret.env'), 'KEY=1');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('trace open serves the page and the one file on 127.0.0.1, prints the address, stops on SIGTERM', async () => {
    const server = startBin(['trace', 'open', 'run.jsonl'], { cwd: folder });
    const [, address] = await server.line(/trace viewer: (http:\/\/127\.0\.0\.1:(\d+)\/\?trace=files%2Frun\.jsonl)/);
    const root = new URL('/', address).href;
    const page = await fetch(root);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('toolcircuit trace viewer');
    expect(await (await fetch(new URL('files/', root))).json()).toEqual(['run.jsonl']);
    const file = await fetch(new URL('files/run.jsonl', root));
    expect(await file.text()).toContain('"producer":"test"');
    // Only that file: not its neighbours, not anything up the tree.
    expect((await fetch(new URL('files/journal.json', root))).status).toBe(404);
    expect((await fetch(`${root}..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${root}files/..%2Fsecret.env`)).status).toBe(404);
    server.child.kill('SIGTERM');
    const { code } = await server.done;
    expect(code).toBe(0);
  });

  it('trace serve lists the trace files of a folder (and nothing else)', async () => {
    const server = startBin(['trace', 'serve', '.'], { cwd: folder });
    const [, root] = await server.line(/trace viewer: (http:\/\/127\.0\.0\.1:\d+\/)\n/);
    expect(await (await fetch(new URL('files/', root))).json()).toEqual(['journal.json', 'run.jsonl']);
    expect((await fetch(new URL('files/notes.txt', root))).status).toBe(404);
    expect((await fetch(new URL('files/secret.env', root))).status).toBe(404);
    expect(await (await fetch(new URL('files/journal.json', root))).text()).toBe('[]');
    server.child.kill('SIGTERM');
    expect((await server.done).code).toBe(0);
  });

  it("demo --trace writes every backend's run as trace records, with the output unchanged", async () => {
    const { code, stdout, stderr } = await runBin(['demo', '--trace', 'demo.jsonl'], { cwd: folder });
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('All 5 traces are identical.');
    expect(stderr).toBe(
      `trace written to ${join(folder, 'demo.jsonl')}; see it with: toolcircuit trace open ${join(folder, 'demo.jsonl')}\n`,
    );
    const records = (await readFile(join(folder, 'demo.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; label?: string; verdict?: string; reason?: string; runId?: string },
      );
    expect(records[0]).toMatchObject({ type: 'trace', version: 1, title: 'toolcircuit demo' });
    const starts = records.filter((record) => record.type === 'invocation');
    expect(starts.map((record) => record.label)).toEqual([
      'anthropic',
      'anthropic',
      'openai-chat',
      'openai-chat',
      'openai-responses',
      'openai-responses',
      'gemini-genai',
      'gemini-genai',
      'gemini-generative-ai',
      'gemini-generative-ai',
    ]);
    for (const runId of new Set(starts.map((record) => record.runId))) {
      const of = (type: string) => records.filter((record) => record.runId === runId && record.type === type);
      expect(of('call').map((call) => `${call.verdict}${call.reason === undefined ? '' : `:${call.reason}`}`)).toEqual([
        'executed',
        'refused:invalid_input',
        'refused:missing_right',
        'awaiting_confirmation',
        'executed',
      ]);
      expect([of('model-call').length, of('pause').length, of('decision').length]).toEqual([3, 1, 1]);
    }
  });

  it('a missing file, no file, or a bad port is a usage error that says what to fix', async () => {
    const missing = await runBin(['trace', 'open', 'nope.jsonl'], { cwd: folder });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.jsonl: no such file.');
    const none = await runBin(['trace', 'open'], { cwd: folder });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('trace open takes one file.');
    const port = await runBin(['trace', 'open', 'run.jsonl', '--port', 'http'], { cwd: folder });
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a port number (0-65535), got "http".');
    const notFolder = await runBin(['trace', 'serve', 'run.jsonl'], { cwd: folder });
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toContain('run.jsonl is not a folder.');
  });
});
