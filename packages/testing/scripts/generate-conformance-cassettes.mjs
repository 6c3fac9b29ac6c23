// Writes packages/testing/conformance-cassettes/ from the conformance scenarios (src/conformance), one
// synthetic cassette per protocol and scenario, so the four protocols always play the same conversation.
// Run `pnpm --filter @toolcircuit/testing generate-conformance` (builds dist first); `--check` only reports
// files that differ, are missing or are left over, and exits 1 if there are any.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { conformanceCassettesDirectory, renderConformanceCassettes } from '../dist/conformance/conformance-cassette.js';

const check = process.argv.includes('--check');
const directory = conformanceCassettesDirectory();
const files = renderConformanceCassettes();

const onDisk = listJson(directory);
const leftOver = onDisk.filter((file) => !files.has(file));
const differing = [...files].filter(([file, text]) => read(join(directory, file)) !== text).map(([file]) => file);

if (check) {
  for (const file of differing) console.error(`stale or missing: ${file}`);
  for (const file of leftOver) console.error(`left over: ${file}`);
  process.exit(differing.length + leftOver.length === 0 ? 0 : 1);
}

for (const file of differing) {
  const path = join(directory, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, files.get(file));
}
for (const file of leftOver) rmSync(join(directory, file));
console.log(`${files.size} conformance cassettes: ${differing.length} written, ${leftOver.length} removed`);

function listJson(root) {
  try {
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.split(sep).join('/'));
  } catch {
    return [];
  }
}

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
