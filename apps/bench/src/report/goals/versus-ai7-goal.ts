import { scenarioLabel } from '../../scenario/scenario.js';
import type { SystemSpec } from '../../systems/bench-system.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { bestCostOf, costOf, resultIn, specIn } from './path-ratios.js';

export const AI7_RATIO_MINIMUM = 30;

/** `ai` 7's µs per call over toolcircuit's, both with the same async tool, in one process (goal cell). */
export const versusAi7Goal: GoalRow = {
  order: 30,
  path: '`runLoop` against `ai` 7 (`generateText`, Zod tools), async tool, K=8 S=100 T=1',
  goal: `≥ ${AI7_RATIO_MINIMUM}× cheaper per call`,
  phases: ['paths'],
  judge({ paths, options }) {
    const cell = paths.find((candidate) => resultIn(candidate, 'ai7') !== undefined);
    const circuitSpec: SystemSpec = { id: 'toolcircuit', tool: 'async' };
    const circuit = specIn(cell, circuitSpec)?.metrics;
    const ai7 = resultIn(cell, 'ai7')?.metrics;
    if (cell === undefined || circuit === undefined || ai7 === undefined) return NOT_MEASURED;
    const ai6 = resultIn(cell, 'ai')?.metrics;
    const floor = resultIn(cell, 'hand-written')?.metrics;
    const ratio = costOf(ai7) / costOf(circuit);
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured:
        `${formatRatio(ratio)} at ${scenarioLabel(cell.scenario)}${quick} ` +
        `(toolcircuit ${formatNumber(costOf(circuit))} CPU µs/call; best runs ${formatRatio(bestCostOf(ai7) / bestCostOf(circuit))};` +
        ` wall time ${formatRatio(ai7.perCallUs / circuit.perCallUs)})`,
      pass: ratio >= AI7_RATIO_MINIMUM,
      peer: [
        `ai 7 ${formatNumber(costOf(ai7))} CPU µs/call`,
        ...(ai6 === undefined
          ? []
          : [`ai 6 ${formatNumber(costOf(ai6))} (${formatRatio(costOf(ai6) / costOf(circuit))})`]),
        ...(floor === undefined ? [] : [`floor ${formatNumber(costOf(floor))}`]),
      ].join('; '),
      profile: { scenario: cell.scenario, spec: circuitSpec },
    };
  },
};
