import type { ServerFigures } from '../../server/measure-server.js';
import type { BenchResults } from '../bench-results.js';
import { type GoalRow, type GoalVerdict, NOT_MEASURED } from './goal-row.js';

/** CPU time the run server may add to a run over the durable runner alone, in the server's process. */
export const SERVER_ADDED_CPU_MS = 2;
/** Decision sent → the irreversible tool started, 95th percentile, on SQLite. */
export const SERVER_DECISION_P95_MS = 20;

const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));

function figuresOf({ server }: BenchResults, backend: ServerFigures['backend']) {
  return server?.figures.find((figures) => figures.backend === backend);
}

/** Nothing lost and nothing run twice is part of every server row: a fast server that loses runs fails. */
function exactly(figures: ServerFigures): string {
  return `${figures.lost} lost, ${figures.twice} run twice of ${figures.runsChecked}`;
}

function judgeAddedCpu(results: BenchResults, backend: ServerFigures['backend']): GoalVerdict {
  const figures = figuresOf(results, backend);
  if (figures === undefined) {
    const missing = backend === 'PostgreSQL' ? results.server?.postgresMissing : undefined;
    return missing === undefined ? NOT_MEASURED : { measured: missing, pass: undefined, peer: '' };
  }
  const { cpuMsPerRun: cpu } = figures;
  return {
    measured:
      `+${ms(figures.addedCpuMsPerRun)} ms CPU per run (median of ${figures.rounds} rounds: ` +
      `${figures.addedCpuRounds.map(ms).join(' / ')}); ${ms(cpu.server)} vs ${ms(cpu.runner)} ms per run; ` +
      `${exactly(figures)}; ${figures.runsPerSecond.toFixed(0)} runs/s; decision → tool start p50 ` +
      `${ms(figures.decisionToToolMs.p50)} ms, p95 ${ms(figures.decisionToToolMs.p95)} ms; peak RSS ` +
      `${(figures.peakRssBytes / 1e6).toFixed(1)} MB`,
    pass:
      Number.isFinite(figures.addedCpuMsPerRun) &&
      figures.addedCpuMsPerRun <= SERVER_ADDED_CPU_MS &&
      figures.lost === 0 &&
      figures.twice === 0,
    peer: `durable runner alone, same process and store: ${ms(cpu.runner)} ms CPU per run, ${figures.peerRunsPerSecond.toFixed(0)} runs/s`,
  };
}

function addedCpuRow(order: number, backend: ServerFigures['backend']): GoalRow {
  return {
    order,
    path:
      `\`@toolcircuit/server\` on ${backend}, 200 concurrent runs over loopback HTTP (node:http), each approved ` +
      'over HTTP by a separate client',
    goal: `≤ ${SERVER_ADDED_CPU_MS} ms CPU per run over the durable runner alone; 0 lost, 0 run twice`,
    phases: ['server'],
    judge: (results) => judgeAddedCpu(results, backend),
  };
}

export const serverSqliteCpuGoal: GoalRow = addedCpuRow(55, 'SQLite');
export const serverPostgresCpuGoal: GoalRow = addedCpuRow(56, 'PostgreSQL');

/** From the client sending the approval to the tool starting in the server's process (one machine clock). */
export const serverDecisionLatencyGoal: GoalRow = {
  order: 57,
  path: '`@toolcircuit/server` on SQLite, 200 concurrent runs: decision sent over HTTP → the irreversible tool starts',
  goal: `p95 ≤ ${SERVER_DECISION_P95_MS} ms`,
  phases: ['server'],
  judge(results) {
    const figures = figuresOf(results, 'SQLite');
    if (figures === undefined) return NOT_MEASURED;
    const { decisionToToolMs: http, peerDecisionToToolMs: peer } = figures;
    return {
      measured:
        `p95 ${ms(http.p95)} ms, p50 ${ms(http.p50)} ms, max ${ms(http.max)} ms ` +
        `(${figures.runs * figures.rounds} decisions, ${figures.runs} at a time); the same runs decided one at a ` +
        `time: p50 ${ms(figures.oneAtATimeMs.p50)} ms, p95 ${ms(figures.oneAtATimeMs.p95)} ms; ${exactly(figures)}`,
      pass:
        Number.isFinite(http.p95) && http.p95 <= SERVER_DECISION_P95_MS && figures.lost === 0 && figures.twice === 0,
      peer: `durable runner alone, \`resume\` → tool start: p50 ${ms(peer.p50)} ms, p95 ${ms(peer.p95)} ms`,
    };
  },
};
