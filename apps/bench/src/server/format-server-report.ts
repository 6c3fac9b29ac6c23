import type { ServerReport } from './measure-server.js';

const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));

/** The server phase's figures, per store, as BENCHMARKS.md shows them. */
export function formatServerReport(report: ServerReport): string {
  const first = report.figures[0];
  const lines = [
    `## Run server: ${first?.runs ?? 0} concurrent runs over loopback HTTP, each approved over HTTP ` +
      `(${first?.rounds ?? 0} rounds against the durable runner alone, alternating; load average ` +
      `${report.loadBefore.toFixed(1)} → ${report.loadAfter.toFixed(1)})`,
    '',
    '| store | lost | run twice | runs/s (runner alone) | decision → tool start p50 / p95 / max, ms (runner alone p50 / p95) | decided one at a time p50 / p95, ms | CPU ms per run: server / runner alone / added (each round) | peak RSS |',
    '|---|---:|---:|---|---|---|---|---:|',
    ...report.figures.map(
      (figures) =>
        `| ${figures.backend} | ${figures.lost} | ${figures.twice} | ${figures.runsPerSecond.toFixed(0)} ` +
        `(${figures.peerRunsPerSecond.toFixed(0)}) | ${ms(figures.decisionToToolMs.p50)} / ` +
        `${ms(figures.decisionToToolMs.p95)} / ${ms(figures.decisionToToolMs.max)} ` +
        `(${ms(figures.peerDecisionToToolMs.p50)} / ${ms(figures.peerDecisionToToolMs.p95)}) | ` +
        `${ms(figures.oneAtATimeMs.p50)} / ${ms(figures.oneAtATimeMs.p95)} | ` +
        `${ms(figures.cpuMsPerRun.server)} / ${ms(figures.cpuMsPerRun.runner)} / +${ms(figures.addedCpuMsPerRun)} ` +
        `(${figures.addedCpuRounds.map(ms).join(', ')}) | ${(figures.peakRssBytes / 1e6).toFixed(1)} MB |`,
    ),
  ];
  lines.push(
    '',
    `Lost and run twice count every run of the phase (${first === undefined ? 0 : first.runsChecked} a store): the ` +
      'timed batches over HTTP, the runner alone’s, and the batch decided one at a time.',
  );
  if (report.postgresMissing !== undefined) lines.push('', `PostgreSQL not measured: ${report.postgresMissing}.`);
  return lines.join('\n');
}
