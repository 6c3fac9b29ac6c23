import { parseArgs } from 'node:util';
import { cassettesDirectory } from '../cassettes/load-cassette.js';
import { defaultSourceDirectory, importRecorded, staleFiles, writeImport } from './import-recorded.js';

// `pnpm --filter @toolcircuit/testing import-recorded [--source DIR] [--out DIR] [--check]`
const { values } = parseArgs({
  options: {
    source: { type: 'string' },
    out: { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const source = values.source ?? defaultSourceDirectory();
const out = values.out ?? cassettesDirectory();
const result = importRecorded(source);
if (values.check) {
  const stale = staleFiles(result, out);
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.length} cassette file(s) differ from a fresh import of ${source}:\n  ${stale.join('\n  ')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${result.files.size} file(s) in ${out} match a fresh import of ${source}\n`);
} else {
  const { written, removed } = await writeImport(result, out);
  const gone = removed.length > 0 ? `, removed ${removed.join(', ')}` : '';
  process.stdout.write(`imported ${source} → ${out}: ${written} file(s)${gone}\n`);
}
