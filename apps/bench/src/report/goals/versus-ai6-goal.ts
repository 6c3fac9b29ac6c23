import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { resultOf } from '../result-of.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { sameScenario } from './path-ratios.js';

export const AI_RATIO_MINIMUM = 20;

/** The earlier goal: ≥ 20× cheaper than `ai` 6 per call at K=8 S=100 (synchronous tool, timing phase). */
export const versusAi6Goal: GoalRow = {
  order: 120,
  path: '`runLoop` against `ai` 6, synchronous tool, K=8 S=100 T=1 (timing phase)',
  goal: `≥ ${AI_RATIO_MINIMUM}× cheaper per call`,
  phases: ['timing'],
  judge({ cells, options }) {
    const goalCell = cells.find((cell) => sameScenario(cell.scenario, options.goalCell));
    const circuit = resultOf(goalCell, 'toolcircuit')?.metrics;
    const ai = resultOf(goalCell, 'ai')?.metrics;
    if (circuit === undefined || ai === undefined) return NOT_MEASURED;
    const ratio = ai.perCallUs / circuit.perCallUs;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured: `${formatRatio(ratio)} at ${scenarioLabel(options.goalCell)}${quick}`,
      pass: ratio >= AI_RATIO_MINIMUM,
      peer: `ai 6 ${formatNumber(ai.perCallUs)} µs/call`,
    };
  },
};
