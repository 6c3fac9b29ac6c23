import { ASYNC_CIRCUIT, ASYNC_FLOOR } from '../../measure/path-plan.js';
import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { bestCostOf, costOf, resultIn, sameScenario, specIn } from './path-ratios.js';

export const AI7_RATIO_MINIMUM = 30;

/**
 * `ai` 7 against toolcircuit in the goal cell, each timed in a fresh process of its own (the issue's own
 * method: one process per configuration) with the same async tool and the floor beside it. Judged on each
 * one's cost over the floor of its own process: two processes a minute apart on this shared machine read
 * the same floor up to 2× apart, and the ratio of the raw figures swung from 15× to 32× between two runs
 * of the same code, while the ratio over the floors moved from 12× to 17×. The raw ratio is shown beside.
 */
export const versusAi7Goal: GoalRow = {
  order: 30,
  path: '`runLoop` against `ai` 7 (`generateText`, Zod tools), async tool, K=8 S=100 T=1',
  goal: `≥ ${AI7_RATIO_MINIMUM}× cheaper per call`,
  phases: ['paths'],
  judge({ paths, options }) {
    const peerCell = paths.find((candidate) => resultIn(candidate, 'ai7') !== undefined);
    const circuitCell = paths.find(
      (candidate) =>
        sameScenario(candidate.scenario, options.goalCell) && specIn(candidate, ASYNC_CIRCUIT) !== undefined,
    );
    const ai7 = resultIn(peerCell, 'ai7')?.metrics;
    const circuit = specIn(circuitCell, ASYNC_CIRCUIT)?.metrics;
    const ai7Floor = specIn(peerCell, ASYNC_FLOOR)?.metrics;
    const circuitFloor = specIn(circuitCell, ASYNC_FLOOR)?.metrics;
    if (peerCell === undefined || ai7 === undefined || circuit === undefined) return NOT_MEASURED;
    if (ai7Floor === undefined || circuitFloor === undefined) return NOT_MEASURED;
    const ai6Cell = paths.find((candidate) => resultIn(candidate, 'ai') !== undefined);
    const ai6 = resultIn(ai6Cell, 'ai')?.metrics;
    const ai7OverFloor = costOf(ai7) / costOf(ai7Floor);
    const circuitOverFloor = costOf(circuit) / costOf(circuitFloor);
    const ratio = ai7OverFloor / circuitOverFloor;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured:
        `${formatRatio(ratio)} at ${scenarioLabel(peerCell.scenario)}${quick}, each over the floor of its own ` +
        `process (ai 7 ${formatRatio(ai7OverFloor)} its floor, toolcircuit ${formatRatio(circuitOverFloor)}; ` +
        // What the goal asks of toolcircuit in this run, next to the cheapest loop that does the same calls.
        `${AI7_RATIO_MINIMUM}× needs toolcircuit at ${formatRatio(ai7OverFloor / AI7_RATIO_MINIMUM)} the floor); ` +
        `raw CPU ratio ${formatRatio(costOf(ai7) / costOf(circuit))} (toolcircuit ${formatNumber(costOf(circuit))} ` +
        `CPU µs/call; best runs ${formatRatio(bestCostOf(ai7) / bestCostOf(circuit))}; wall time ` +
        `${formatRatio(ai7.perCallUs / circuit.perCallUs)})`,
      pass: ratio >= AI7_RATIO_MINIMUM,
      peer: [
        `ai 7 ${formatNumber(costOf(ai7))} CPU µs/call`,
        ...(ai6 === undefined
          ? []
          : [`ai 6 ${formatNumber(costOf(ai6))} (${formatRatio(costOf(ai6) / costOf(circuit))} raw)`]),
        `floor in ai 7's process ${formatNumber(costOf(ai7Floor))}, in toolcircuit's ${formatNumber(costOf(circuitFloor))}`,
      ].join('; '),
      profile: { scenario: options.goalCell, spec: ASYNC_CIRCUIT },
    };
  },
};
