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
    '',
    '| database | µs per turn, wall: runner / floor / floor with confirmation | µs per turn, CPU of this process: runner / floor / floor with confirmation |',
    '|---|---|---|',
    ...report.figures.map(
      (figures) =>
        `| ${figures.backend} | ${[figures.runnerUsPerTurn, figures.floorUsPerTurn, figures.confirmedFloorUsPerTurn].map(Math.round).join(' / ')} | ` +
        `${[figures.cpuUsPerTurn.runner, figures.cpuUsPerTurn.floor, figures.cpuUsPerTurn.confirmed].map(Math.round).join(' / ')} |`,
    ),
  ];
  return lines.join('\n');
}
