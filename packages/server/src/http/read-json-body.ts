import { HttpProblem } from './http-problem.js';

/**
 * The JSON body of a state-changing request: its content type must be JSON (a cross-site form cannot send
 * that without a preflight), it is read up to `limit` bytes and no further (413 beyond), and it must parse
 * (400 naming where it failed). An empty body reads as `undefined`.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpProblem(
      415,
      'unsupported_media_type',
      `this route takes a JSON body: send "content-type: application/json" (got ${type === null ? 'none' : `"${type}"`}).`,
    );
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const text = await readLimited(request, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HttpProblem(400, 'invalid_json', `the body is not valid JSON: ${detail}`);
  }
}

/** Reads the body as UTF-8, stopping (and cancelling the stream) as soon as it passes `limit` bytes. */
async function readLimited(request: Request, limit: number): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, 'payload_too_large', `the body is larger than the server's limit of ${limit} bytes.`);
}
