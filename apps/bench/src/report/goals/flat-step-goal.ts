import type { MatrixCell } from '../../measure/run-matrix.js';
import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber } from '../format-table.js';
import { resultOf } from '../result-of.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

export const FLATNESS_LIMIT = 1.5;

/** The earlier goal: the per-step cost stays flat to the longest S (last 10 steps over the first 10). */
export const flatStepGoal: GoalRow = {
  order: 130,
  path: '`runLoop` per-step cost at the longest S, every K and T (timing phase)',
  goal: `last-10 / first-10 < ${FLATNESS_LIMIT}`,
  phases: ['timing'],
  judge({ cells, options }) {
    const longest = Math.max(...cells.map((cell) => cell.scenario.steps));
    let flattest: { ratio: number; cell: MatrixCell } | undefined;
    for (const cell of cells.filter((candidate) => candidate.scenario.steps === longest)) {
      const metrics = resultOf(cell, 'toolcircuit')?.metrics;
      if (metrics === undefined) continue;
      const ratio = metrics.last10Us / metrics.first10Us;
      if (flattest === undefined || ratio > flattest.ratio) flattest = { ratio, cell };
    }
    if (flattest === undefined) return NOT_MEASURED;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    const peers = ['ai', 'openai-agents'] as const;
    const peerRatios = peers.flatMap((id) => {
      const metrics = resultOf(flattest.cell, id)?.metrics;
      return metrics === undefined ? [] : [`${id} ${formatNumber(metrics.last10Us / metrics.first10Us)}`];
    });
    return {
      measured: `worst ${formatNumber(flattest.ratio)} at ${scenarioLabel(flattest.cell.scenario)}${quick}`,
      pass: flattest.ratio < FLATNESS_LIMIT,
      peer: peerRatios.join('; '),
      profile: { scenario: flattest.cell.scenario, spec: { id: 'toolcircuit' } },
    };
  },
};
