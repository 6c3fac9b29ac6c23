import { GROWTH_LIMIT, HONEST_FLOOR_LIMIT } from '../../durable/measure-durable-growth.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

/**
 * The durable runner over one long run (`measureDurableGrowth`, inside the durable phase): its cost per
 * turn must not grow with the conversation, and must stay near a hand-written floor that does the work a
 * durable, verifiable run cannot avoid. Each row picks its lines out of the phase's table by backend.
 */
function growthRow(order: number, kind: 'flat' | 'floor'): GoalRow {
  return {
    order,
    path:
      kind === 'flat'
        ? 'durable runner (packages/stores), one run of 1,000 turns, SQLite and PostgreSQL'
        : 'durable runner (packages/stores) against a floor doing its unavoidable work, SQLite and PostgreSQL',
    goal:
      kind === 'flat'
        ? `bytes written and time per turn flat: last 10 / first 10 turns ≤ ${GROWTH_LIMIT}`
        : `≤ ${HONEST_FLOOR_LIMIT}× a loop making its commits, canonical JSON and keyed chain entry per record`,
    phases: ['durable'],
    judge({ durable }) {
      const rows = (durable?.growth?.rows ?? []).filter((row) =>
        kind === 'flat' ? row.path.includes('one run of') : row.path.includes('unavoidable'),
      );
      if (rows.length === 0) return NOT_MEASURED;
      const backend = (row: { path: string }) => (row.path.includes('PostgreSQL') ? 'PostgreSQL' : 'SQLite');
      // The floor row leads with both ratios (its figure is each row's first word), then each row's details.
      const lead =
        kind === 'floor' ? `${rows.map((row) => `${backend(row)} ${row.measured.split(' ')[0]}`).join(', ')}; ` : '';
      return {
        measured: lead + rows.map((row) => `${backend(row)}: ${row.measured}`).join('; '),
        pass: rows.some((row) => row.pass === undefined) ? undefined : rows.every((row) => row.pass === true),
        peer: '',
      };
    },
  };
}

export const durableFlatGoal: GoalRow = growthRow(52, 'flat');
export const durableHonestFloorGoal: GoalRow = growthRow(53, 'floor');
