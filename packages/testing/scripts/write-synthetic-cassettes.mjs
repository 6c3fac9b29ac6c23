// Writes packages/testing/synthetic-cassettes/ from the definitions in src/synthetic/synthetic-cassettes.ts: the
// shapes no public recording has (unknown items and calls, pause_turn and refusal, error events inside a stream,
// 5xx bodies). Run `pnpm --filter @toolcircuit/testing write-synthetic` (builds dist first); `--check` only
// reports files that differ, are missing or are left over, and exits 1 if there are any.
import { renderSyntheticCassettes, syntheticCassettesDirectory } from '../dist/synthetic/synthetic-cassettes.js';
import { writeCassetteFiles } from './write-cassette-files.mjs';

writeCassetteFiles(syntheticCassettesDirectory(), renderSyntheticCassettes(), 'synthetic cassettes');
