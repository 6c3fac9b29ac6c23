import { DURABLE_RATIO_LIMIT } from '../../durable/measure-durable-runner.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

/**
 * The durable runner's rows: it measures its own table (`measureDurableRunner`, one row per backend and
 * floor), so each row here only picks its line out of that table by backend. The timed runner is the goal's
 * scenario: calls that need no confirmation, each under a start record of a stored turn and an outcome,
 * against the floor's two commits a turn. The companion (every turn confirmed by a human, against the floor
 * that also commits what the confirmation needs) is given beside the row.
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
        // The companion beside it: the floor that also commits what the scenario's confirmations need.
        peer:
          figures === undefined
            ? ''
            : `floor ${Math.round(figures.floorUsPerTurn)} µs per turn; companion, every turn confirmed: runner ` +
              `${Math.round(figures.confirmedRunnerUsPerTurn)} µs against the floor with confirmation ` +
              `${Math.round(figures.confirmedFloorUsPerTurn)} µs (${figures.confirmedRatio.toFixed(2)}×)`,
      };
    },
  };
}

export const durableSqliteGoal: GoalRow = durableRow(50, 'SQLite');
export const durablePostgresGoal: GoalRow = durableRow(51, 'PostgreSQL');
