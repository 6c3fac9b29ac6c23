import { createHash } from 'node:crypto';
import { canonicalJson } from '@toolcircuit/core';

/** The `prevHash` of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of a row: SHA-256 over the canonical JSON of its record and the previous row's hash. The
 * position (`seq`) is deliberately not hashed: the chain itself fixes the order, which is what lets
 * `verify` tell a moved row ("reordered") from a changed one ("edited").
 */
export function chainHash(prevHash: string, record: unknown): string {
  return createHash('sha256').update(canonicalJson({ prevHash, record }), 'utf8').digest('hex');
}
