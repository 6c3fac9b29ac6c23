import { scenarioLabel } from '../../scenario/scenario.js';
import type { SystemSpec } from '../../systems/bench-system.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { bestCostOf, costOf, resultIn, sameScenario, specIn } from './path-ratios.js';

export const AI7_RATIO_MINIMUM = 30;

const CIRCUIT: SystemSpec = { id: 'toolcircuit', tool: 'async' };
const FLOOR: SystemSpec = { id: 'hand-written', tool: 'async' };

/**
 * `ai` 7's CPU µs per call over toolcircuit's in the goal cell, each timed in a fresh process of its own
 * (the issue's own method: one process per configuration) with the same async tool. Beside it, the same
 * comparison with each figure taken over the floor timed in its process, which cancels what one process
 * drew from the machine that the other did not.
 */
export const versusAi7Goal: GoalRow = {
  order: 30,
  path: '`runLoop` against `ai` 7 (`generateText`, Zod tools), async tool, K=8 S=100 T=1',
  goal: `≥ ${AI7_RATIO_MINIMUM}× cheaper per call`,
  phases: ['paths'],
  judge({ paths, options }) {
    const peerCell = paths.find((candidate) => resultIn(candidate, 'ai7') !== undefined);
    const circuitCell = paths.find(
      (candidate) => sameScenario(candidate.scenario, options.goalCell) && specIn(candidate, CIRCUIT) !== undefined,
    );
    const ai7 = resultIn(peerCell, 'ai7')?.metrics;
    const circuit = specIn(circuitCell, CIRCUIT)?.metrics;
    if (peerCell === undefined || ai7 === undefined || circuit === undefined) return NOT_MEASURED;
    const ai6Cell = paths.find((candidate) => resultIn(candidate, 'ai') !== undefined);
    const ai6 = resultIn(ai6Cell, 'ai')?.metrics;
    const ai7Floor = specIn(peerCell, FLOOR)?.metrics;
    const circuitFloor = specIn(circuitCell, FLOOR)?.metrics;
    const ratio = costOf(ai7) / costOf(circuit);
    const overFloors =
      ai7Floor === undefined || circuitFloor === undefined
        ? ''
        : `; over each process's floor ${formatRatio(costOf(ai7) / costOf(ai7Floor) / (costOf(circuit) / costOf(circuitFloor)))}`;
    // What the goal asks of toolcircuit in this run, next to the cheapest loop that does the same calls.
    const needed = costOf(ai7) / AI7_RATIO_MINIMUM;
    const budget =
      ai7Floor === undefined
        ? ''
        : `; ${AI7_RATIO_MINIMUM}× needs ≤ ${formatNumber(needed)} CPU µs/call, ` +
          `the hand-written floor in ai 7's process takes ${formatNumber(costOf(ai7Floor))}`;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured:
        `${formatRatio(ratio)} at ${scenarioLabel(peerCell.scenario)}${quick}, each in its own process ` +
        `(toolcircuit ${formatNumber(costOf(circuit))} CPU µs/call; best runs ${formatRatio(bestCostOf(ai7) / bestCostOf(circuit))};` +
        ` wall time ${formatRatio(ai7.perCallUs / circuit.perCallUs)}${overFloors}${budget})`,
      pass: ratio >= AI7_RATIO_MINIMUM,
      peer: [
        `ai 7 ${formatNumber(costOf(ai7))} CPU µs/call`,
        ...(ai6 === undefined
          ? []
          : [`ai 6 ${formatNumber(costOf(ai6))} (${formatRatio(costOf(ai6) / costOf(circuit))})`]),
        ...(ai7Floor === undefined ? [] : [`floor in ai 7's process ${formatNumber(costOf(ai7Floor))}`]),
      ].join('; '),
      profile: { scenario: options.goalCell, spec: CIRCUIT },
    };
  },
};
