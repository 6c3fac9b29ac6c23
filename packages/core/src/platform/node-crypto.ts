type NodeCrypto = typeof import('node:crypto');

let loaded: NodeCrypto | undefined;

/**
 * `node:crypto`, loaded on first use rather than when core is imported. Loading it is a few milliseconds
 * of a cold start (most of what an adapter added over its SDK's own import once core is one bundled file),
 * and a process that only builds requests and catalogues never hashes or draws a random id.
 * `process.getBuiltinModule` (Node ≥ 20.16; engines say ≥ 20.19) loads it synchronously, so the callers
 * stay synchronous.
 */
export function nodeCrypto(): NodeCrypto {
  loaded ??= process.getBuiltinModule('node:crypto');
  return loaded;
}
