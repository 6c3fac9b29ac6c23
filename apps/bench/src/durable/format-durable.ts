import type { DurableReport } from './measure-durable-runner.js';

function verdict(pass: boolean | undefined): string {
  return pass === undefined ? 'NOT MEASURED' : pass ? 'PASS' : 'FAIL';
}

/** The durable rows and their figures, as BENCHMARKS.md shows them. */
export function formatDurable(report: DurableReport): string {
  const { scenario } = report;
  const lines = [
    `## Durable runner against its commits (K=${scenario.calls} async calls a turn, S=${scenario.turns} turns a run, ` +
      `${report.rounds} rounds × ${report.runsPerRound} runs, alternating; the goal's runner without confirmation, ` +
      'the companion confirming every turn)',
    '',
    '| path | goal | measured | verdict |',
    '|---|---|---|---|',
    ...report.rows.map((row) => `| ${row.path} | ${row.goal} | ${row.measured} | ${verdict(row.pass)} |`),
    '',
    '| database | µs per turn, wall: runner / floor / runner confirming / floor with confirmation | µs per turn, CPU of this process: the same four |',
    '|---|---|---|',
    ...report.figures.map((figures) => {
      const { cpuUsPerTurn: cpu } = figures;
      const wall = [
        figures.runnerUsPerTurn,
        figures.floorUsPerTurn,
        figures.confirmedRunnerUsPerTurn,
        figures.confirmedFloorUsPerTurn,
      ];
      const cpuFigures = [cpu.runner, cpu.floor, cpu.confirmedRunner, cpu.confirmed];
      return `| ${figures.backend} | ${wall.map(Math.round).join(' / ')} | ${cpuFigures.map(Math.round).join(' / ')} |`;
    }),
  ];
  const { growth } = report;
  if (growth !== undefined) {
    lines.push(
      '',
      `### One long run per database, turn by turn (K=${scenario.calls}, journal keyed), and the honest floor`,
      '',
      '| path | goal | measured | verdict |',
      '|---|---|---|---|',
      ...growth.rows.map((row) => `| ${row.path} | ${row.goal} | ${row.measured} | ${verdict(row.pass)} |`),
    );
  }
  return lines.join('\n');
}
