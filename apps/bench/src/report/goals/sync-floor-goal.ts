import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { resultOf } from '../result-of.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { sameScenario } from './path-ratios.js';

export const FLOOR_RATIO_LIMIT = 3;

/** The earlier goal: toolcircuit ≤ 3× the floor with a synchronous tool, all systems in one process. */
export const syncFloorGoal: GoalRow = {
  order: 110,
  path: '`runLoop`, synchronous tool, every cell, all four systems in one process (timing phase)',
  goal: `≤ ${FLOOR_RATIO_LIMIT}× floor`,
  phases: ['timing'],
  judge({ cells, options }) {
    let worst: { ratio: number; label: string } | undefined;
    let best = 0;
    for (const cell of cells) {
      const circuit = resultOf(cell, 'toolcircuit')?.metrics;
      const floor = resultOf(cell, 'hand-written')?.metrics;
      if (circuit === undefined || floor === undefined) continue;
      const ratio = circuit.perCallUs / floor.perCallUs;
      best = Math.max(best, circuit.bestPerCallUs / floor.bestPerCallUs);
      if (worst === undefined || ratio > worst.ratio) worst = { ratio, label: scenarioLabel(cell.scenario) };
    }
    if (worst === undefined) return NOT_MEASURED;
    const goalCell = cells.find((cell) => sameScenario(cell.scenario, options.goalCell));
    const circuit = resultOf(goalCell, 'toolcircuit')?.metrics;
    const floor = resultOf(goalCell, 'hand-written')?.metrics;
    const atGoal = circuit !== undefined && floor !== undefined ? circuit.perCallUs / floor.perCallUs : undefined;
    return {
      measured:
        `worst ${formatRatio(worst.ratio)} at ${worst.label}; ${formatRatio(atGoal)} at ${scenarioLabel(options.goalCell)}; ` +
        `best runs, worst cell: ${formatRatio(best)}`,
      pass: worst.ratio <= FLOOR_RATIO_LIMIT,
      peer:
        floor === undefined
          ? ''
          : `floor ${formatNumber(floor.perCallUs)} µs/call at ${scenarioLabel(options.goalCell)}`,
      profile: { scenario: options.goalCell, spec: { id: 'toolcircuit' } },
    };
  },
};
