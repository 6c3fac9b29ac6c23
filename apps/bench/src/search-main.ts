// `pnpm --filter @toolcircuit/bench bench:search`: the tool search's recall on the held-out sets (by source,
// style of request and catalogue size, the tuning sets apart) and its speed; its recall on the BFCL questions
// over the whole corpus; and request bytes per step with 600 deferred tools vs all shown, on every adapter.
// Markdown on stdout, for BENCHMARKS.md. `--tune` instead reruns the tuning (tuning sets only) and prints
// every setting tried.
import { loadavg } from 'node:os';
import { formatHeldOutReport } from './search/format-held-out-report.js';
import { formatRecall, formatRequestBytes } from './search/format-search-report.js';
import { measureDeferredRequestBytes } from './search/measure-deferred-requests.js';
import { measureHeldOutRecall } from './search/measure-held-out-recall.js';
import { measureSearchRecall } from './search/measure-search-recall.js';
import { measureSearchSpeed } from './search/measure-search-speed.js';
import { tuneSearch } from './search/tune-search.js';

if (process.argv.includes('--tune')) {
  const { tuning, trials } = tuneSearch(2, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`| setting tried | mean recall@5 | mean recall@1 |\n|---|---:|---:|\n`);
  for (const trial of trials) {
    process.stdout.write(
      `| ${trial.change} | ${(trial.recall5 * 100).toFixed(2)} % | ${(trial.recall1 * 100).toFixed(2)} % |\n`,
    );
  }
  process.stdout.write(`\nChosen: \`${JSON.stringify(tuning)}\`\n`);
} else {
  const load = () => (loadavg()[0] ?? 0).toFixed(1);
  const before = load();
  const rows = measureHeldOutRecall();
  const speed = measureSearchSpeed();
  process.stdout.write(`${formatHeldOutReport(rows, speed, `${before} → ${load()}`)}\n\n`);
  const recall = measureSearchRecall();
  process.stdout.write(`${formatRecall(recall)}\n\n`);
  const bytes = await measureDeferredRequestBytes();
  process.stdout.write(`${formatRequestBytes(bytes)}\n`);
}
