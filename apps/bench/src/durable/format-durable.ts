import type { DurableReport } from './measure-durable-runner.js';

function verdict(pass: boolean | undefined): string {
  return pass === undefined ? 'NOT MEASURED' : pass ? 'PASS' : 'FAIL';
}

/** The durable rows and their figures, as BENCHMARKS.md shows them. */
export function formatDurable(report: DurableReport): string {
  const { scenario } = report;
  const lines = [
    `## Durable runner against its commits (K=${scenario.calls} irreversible async calls a turn, S=${scenario.turns} turns a run, ` +
      `${report.rounds} rounds × ${report.runsPerRound} runs, alternating)`,
    '',
    '| path | goal | measured | verdict |',
    '|---|---|---|---|',
    ...report.rows.map((row) => `| ${row.path} | ${row.goal} | ${row.measured} | ${verdict(row.pass)} |`),
  ];
  return lines.join('\n');
}
