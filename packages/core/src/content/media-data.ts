import { nodeCrypto } from '../platform/node-crypto.js';
import type { MediaContentPart } from './media-part.js';

// One entry per part object: a screenshot sent on every later turn of a run is encoded (and hashed) once,
// whichever adapter or journal asks first.
const base64Texts = new WeakMap<MediaContentPart, string>();
const byteArrays = new WeakMap<MediaContentPart, Uint8Array>();
const digests = new WeakMap<MediaContentPart, string>();

/** The part's bytes as base64, computed once per part (`undefined` for a URL part). */
export function mediaBase64(part: MediaContentPart): string | undefined {
  if (part.data === undefined) return undefined;
  if (typeof part.data === 'string') return part.data;
  let text = base64Texts.get(part);
  if (text === undefined) {
    text = Buffer.from(part.data.buffer, part.data.byteOffset, part.data.byteLength).toString('base64');
    base64Texts.set(part, text);
  }
  return text;
}

/** The part's bytes (decoded once when the tool gave base64), `undefined` for a URL part. */
export function mediaBytes(part: MediaContentPart): Uint8Array | undefined {
  if (part.data === undefined) return undefined;
  if (typeof part.data !== 'string') return part.data;
  let bytes = byteArrays.get(part);
  if (bytes === undefined) {
    bytes = Buffer.from(part.data, 'base64');
    byteArrays.set(part, bytes);
  }
  return bytes;
}

/** Size of the bytes without decoding base64 (`undefined` for a URL part). */
export function mediaByteLength(part: MediaContentPart): number | undefined {
  if (part.data === undefined) return undefined;
  if (typeof part.data !== 'string') return part.data.byteLength;
  const text = part.data;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** `data:<media type>;base64,…`, as OpenAI's image_url and file_data fields take it. */
export function mediaDataUrl(part: MediaContentPart): string | undefined {
  const base64 = mediaBase64(part);
  return base64 === undefined ? undefined : `data:${part.mediaType};base64,${base64}`;
}

/** SHA-256 (hex) of the bytes, or of the URL text for a URL part: what a journal keeps instead of the bytes. */
export function mediaDigest(part: MediaContentPart): string {
  let digest = digests.get(part);
  if (digest === undefined) {
    const bytes = mediaBytes(part);
    digest = nodeCrypto()
      .createHash('sha256')
      .update(bytes ?? part.url ?? '')
      .digest('hex');
    digests.set(part, digest);
  }
  return digest;
}

/** A text file's content as text (UTF-8), `undefined` for a URL part. */
export function mediaText(part: MediaContentPart): string | undefined {
  const bytes = mediaBytes(part);
  return bytes === undefined
    ? undefined
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
