import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A made-up but stable identifier body: the same seed always gives the same text, so regenerating the
 * conformance cassettes changes nothing, and different seeds give different ids as real providers do.
 */
export function syntheticToken(seed: string, length: number, alphabet: 'base62' | 'hex' = 'base62'): string {
  let out = '';
  for (let round = 0; out.length < length; round += 1) {
    const digest = createHash('sha256').update(`${seed}#${round}`).digest();
    out += alphabet === 'hex' ? digest.toString('hex') : [...digest].map((byte) => BASE62[byte % 62]).join('');
  }
  return out.slice(0, length);
}

/** A stable base64 blob standing in for an opaque provider value (a thought signature). */
export function syntheticBlob(seed: string, bytes: number): string {
  const chunks: Buffer[] = [];
  for (let round = 0; chunks.length * 32 < bytes; round += 1) {
    chunks.push(createHash('sha256').update(`${seed}#${round}`).digest());
  }
  return Buffer.concat(chunks).subarray(0, bytes).toString('base64');
}
