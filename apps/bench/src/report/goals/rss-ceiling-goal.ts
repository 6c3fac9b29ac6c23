import { scenarioLabel } from '../../scenario/scenario.js';
import { formatNumber } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';
import { sameScenario } from './path-ratios.js';

export const RSS_LIMIT_MB = 150;

/** The earlier goal: toolcircuit's peak RSS at K=8 S=500 (synchronous tool, no journal) under 150 MB. */
export const rssCeilingGoal: GoalRow = {
  order: 140,
  path: 'peak RSS, `runLoop`, synchronous tool, K=8 S=500 T=1',
  goal: `< ${RSS_LIMIT_MB} MB`,
  phases: ['rss'],
  judge({ rss, options }) {
    const target = options.rssCells.at(-1);
    const reports = rss.find((entry) => target !== undefined && sameScenario(entry.scenario, target))?.reports;
    const peak = reports?.find((report) => report.system === 'toolcircuit')?.peakRssMb;
    if (peak === undefined || target === undefined) return NOT_MEASURED;
    const floor = reports?.find((report) => report.system === 'hand-written')?.peakRssMb;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured: `${formatNumber(peak)} MB at ${scenarioLabel(target)}${quick}`,
      pass: peak < RSS_LIMIT_MB,
      peer: floor === undefined ? '' : `floor ${formatNumber(floor)} MB`,
    };
  },
};
