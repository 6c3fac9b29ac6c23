/**
 * `pnpm bench:rejudge FILE`: the goal table again, from the figures a `pnpm bench --json=FILE` run saved,
 * judged by today's goal rows. Nothing is measured: a row whose rule changed is judged on the same run.
 */
import { readFileSync } from 'node:fs';
import type { BenchOptions } from './bench-options.js';
import type { BenchResults } from './report/bench-results.js';
import { judgeGoals } from './report/judge-goals.js';
import { formatGoals } from './report/print-report.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('Usage: pnpm bench:rejudge FILE (a file written by pnpm bench --json=FILE)');
const saved = JSON.parse(readFileSync(file, 'utf8')) as Omit<BenchResults, 'options'> & {
  readonly options: Omit<BenchOptions, 'phases'> & { readonly phases: readonly string[] };
};
const options = { ...saved.options, phases: new Set(saved.options.phases) } as BenchOptions;
const judged = await judgeGoals({ ...saved, options });
process.stdout.write(`${formatGoals(judged, options.quick)}\n`);
