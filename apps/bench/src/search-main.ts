// `pnpm --filter @toolcircuit/bench bench:search`: the tool search's recall on the BFCL questions over the
// whole corpus, and request bytes per step with 600 deferred tools vs all shown, on every adapter. Markdown
// on stdout, for BENCHMARKS.md. Short: one pass over the questions, one task per adapter and mode.
import { formatRecall, formatRequestBytes } from './search/format-search-report.js';
import { measureDeferredRequestBytes } from './search/measure-deferred-requests.js';
import { measureSearchRecall } from './search/measure-search-recall.js';

const recall = measureSearchRecall();
process.stdout.write(`${formatRecall(recall)}\n\n`);
const bytes = await measureDeferredRequestBytes();
process.stdout.write(`${formatRequestBytes(bytes)}\n`);
