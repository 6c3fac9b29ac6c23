import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { withDroppingServer } from '../src/index.js';

/** Reads a response body to its end (or failure), keeping what arrived before a failure. */
function readBody(url: string): Promise<{ status: number | undefined; received: string; error: Error | undefined }> {
  return new Promise((resolve) => {
    let received = '';
    let status: number | undefined;
    const outgoing = request(url, { method: 'POST' }, (response) => {
      status = response.statusCode;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        received += chunk;
      });
      response.on('end', () => resolve({ status, received, error: undefined }));
      response.on('error', (error) => resolve({ status, received, error }));
    });
    outgoing.on('error', (error) => resolve({ status, received, error }));
    outgoing.end('{"stream":true}');
  });
}

describe('withDroppingServer', () => {
  it('sends all of the text with status 200, then drops the connection instead of ending the body', async () => {
    const text = 'data: {"partial": tr';
    const outcome = await withDroppingServer(text, (url) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      return readBody(`${url}/v1/anything`);
    });
    expect(outcome.status).toBe(200);
    expect(outcome.received).toBe(text);
    expect(outcome.error).toBeInstanceOf(Error);
  });

  it('returns what the body returned and closes the server afterwards', async () => {
    let seen = '';
    const result = await withDroppingServer('x', async (url) => {
      seen = url;
      return 42;
    });
    expect(result).toBe(42);
    const after = await readBody(seen);
    expect(after.status).toBeUndefined();
    expect(after.error).toBeInstanceOf(Error);
  });
});
