import { DURABLE_RATIO_LIMIT } from '../../durable/measure-durable-runner.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

/**
 * The durable runner's rows: it measures its own table (`measureDurableRunner`, one row per backend and
 * floor), so each row here only picks its line out of that table by backend.
 */
function durableRow(order: number, backend: 'SQLite' | 'PostgreSQL'): GoalRow {
  const path = `durable runner (packages/stores) on ${backend}`;
  return {
    order,
    path: `${path}, against a loop making only a "started" and an outcome commit per turn`,
    goal: `≤ ${DURABLE_RATIO_LIMIT}× that floor`,
    phases: ['durable'],
    judge({ durable }) {
      const row = durable?.rows.find((candidate) => candidate.path === path);
      if (row === undefined) return NOT_MEASURED;
      const figures = durable?.figures.find((candidate) => candidate.backend === backend);
      return {
        measured: row.measured,
        pass: row.pass,
        peer: figures === undefined ? '' : `floor ${Math.round(figures.floorUsPerTurn)} µs per turn`,
      };
    },
  };
}

export const durableSqliteGoal: GoalRow = durableRow(50, 'SQLite');
export const durablePostgresGoal: GoalRow = durableRow(51, 'PostgreSQL');
