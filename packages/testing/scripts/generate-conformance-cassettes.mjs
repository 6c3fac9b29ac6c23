// Writes packages/testing/conformance-cassettes/ from the conformance scenarios (src/conformance), one
// synthetic cassette per protocol and scenario, so the four protocols always play the same conversation.
// Run `pnpm --filter @toolcircuit/testing generate-conformance` (builds dist first); `--check` only reports
// files that differ, are missing or are left over, and exits 1 if there are any.
import { conformanceCassettesDirectory, renderConformanceCassettes } from '../dist/conformance/conformance-cassette.js';
import { writeCassetteFiles } from './write-cassette-files.mjs';

writeCassetteFiles(conformanceCassettesDirectory(), renderConformanceCassettes(), 'conformance cassettes');
