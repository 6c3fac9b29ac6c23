import { STREAM_CIRCUIT, STREAM_FLOOR } from '../../measure/path-plan.js';
import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { describeAt, pathRatios, worstOf } from './path-ratios.js';

export const STREAM_FLOOR_LIMIT = 1.5;

/**
 * `streamLoop` with every event read, against the hand-written loop that streams each turn, call and result
 * to its reader through an async generator (the same back-pressure), timed in the same process, every cell.
 */
export const streamFloorGoal: GoalRow = {
  order: 22,
  path: '`streamLoop`, every event read, async tool, every cell',
  goal: `≤ ${STREAM_FLOOR_LIMIT}× the streaming floor (async generator, same back-pressure)`,
  phases: ['paths'],
  judge({ paths, options }) {
    const ratios = pathRatios(paths, STREAM_CIRCUIT, STREAM_FLOOR);
    const worst = worstOf(ratios);
    if (worst === undefined) return NOT_MEASURED;
    const least = Math.min(...ratios.map((entry) => entry.ratio));
    const worstBest = Math.max(...ratios.map((entry) => entry.bestRatio));
    const atGoal = describeAt(ratios, options.goalCell);
    return {
      measured:
        `${formatRatio(least)}–${formatRatio(worst.ratio)} over ${ratios.length} cells, worst at ${scenarioLabel(worst.scenario)} ` +
        `(best runs: worst ${formatRatio(worstBest)})${atGoal === undefined ? '' : `; ${atGoal}`}`,
      pass: worst.ratio <= STREAM_FLOOR_LIMIT,
      peer: `streaming floor ${formatNumber(worst.floorUs)} CPU µs/call at ${scenarioLabel(worst.scenario)}`,
      profile: { scenario: worst.scenario, spec: STREAM_CIRCUIT },
    };
  },
};
