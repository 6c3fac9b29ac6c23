import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withStaticPage } from '../src/index.js';

// A folder with a page, and a secret next to it that must never be served.
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-page-'));
const page = join(root, 'page');
mkdirSync(join(page, 'assets'), { recursive: true });
writeFileSync(join(page, 'index.html'), '<!doctype html><title>inbox</title>');
writeFileSync(join(page, 'assets', 'main.js'), 'console.log(1);');
writeFileSync(join(root, 'secret.txt'), 'not for the web');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const seen: string[] = [];
const handler = withStaticPage(
  {
    handle: async (request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return new Response('from the run server', { status: 404 });
    },
  },
  { directory: page },
);
const get = (path: string, method = 'GET') => handler.handle(new Request(`http://127.0.0.1:8787${path}`, { method }));

describe('withStaticPage', () => {
  it("serves the page's files with their type and a policy without inline script", async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    expect(await index.text()).toContain('<title>inbox</title>');
    const script = await get('/assets/main.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const head = await get('/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(seen).toEqual([]);
  });

  it('hands everything else to the run server: its routes, other methods, missing files, paths out of the folder', async () => {
    for (const path of [
      '/runs',
      '/approvals',
      '/assets/missing.js',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets',
    ]) {
      const response = await get(path);
      expect(await response.text()).toBe('from the run server');
    }
    expect((await handler.handle(new Request('http://127.0.0.1:8787/', { method: 'POST', body: '{}' }))).status).toBe(
      404,
    );
    expect(seen).toEqual([
      'GET /runs',
      'GET /approvals',
      'GET /assets/missing.js',
      'GET /secret.txt',
      'GET /..%2fsecret.txt',
      'GET /assets',
      'POST /',
    ]);
  });
});
