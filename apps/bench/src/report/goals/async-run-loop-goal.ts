import { ASYNC_CIRCUIT, SYNC_PATH } from '../../measure/path-plan.js';
import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { describeAt, describeRange, pathRatios, sameScenario, worstOf } from './path-ratios.js';

export const ASYNC_FLOOR_LIMIT = 2;

/** `runLoop` with an async tool against the `Promise.all` floor with an async tool, in every cell. */
export const asyncRunLoopGoal: GoalRow = {
  order: 10,
  path: '`runLoop`, async tool, every cell (K∈{1,8}, S∈{10,100,500}, T∈{1,100})',
  goal: `≤ ${ASYNC_FLOOR_LIMIT}× floor (async tool, \`Promise.all\`)`,
  phases: ['paths'],
  judge({ paths, options }) {
    const ratios = pathRatios(paths, ASYNC_CIRCUIT);
    const worst = worstOf(ratios);
    if (worst === undefined) return NOT_MEASURED;
    const sync = pathRatios(paths, SYNC_PATH);
    const atGoal = describeAt(ratios, options.goalCell);
    const goalFloor = ratios.find((entry) => sameScenario(entry.scenario, options.goalCell))?.floorUs;
    return {
      measured: [
        describeRange(ratios),
        ...(atGoal === undefined ? [] : [atGoal]),
        ...(sync.length === 0 ? [] : [`synchronous tool and floor: ${describeRange(sync)}`]),
      ].join('; '),
      pass: worst.ratio <= ASYNC_FLOOR_LIMIT,
      peer: `floor ${formatNumber(goalFloor ?? worst.floorUs)} CPU µs/call at ${scenarioLabel(goalFloor === undefined ? worst.scenario : options.goalCell)}`,
      profile: { scenario: worst.scenario, spec: ASYNC_CIRCUIT },
    };
  },
};
