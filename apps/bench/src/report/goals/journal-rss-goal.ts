import { ASYNC_CIRCUIT, ASYNC_FLOOR, JOURNAL_FLOOR, JOURNALED_CIRCUIT } from '../../measure/path-plan.js';
import { median } from '../../measure/stats.js';
import type { RssChildReport } from '../../rss-child.js';
import { scenarioLabel } from '../../scenario/scenario.js';
import { type SystemSpec, sameSpec } from '../../systems/bench-system.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

export const JOURNAL_RSS_LIMIT = 1.2;

/** The systems whose peak RSS the row compares, each in fresh children (see `main.ts`). */
export const RSS_GOAL_SYSTEMS: readonly SystemSpec[] = [JOURNALED_CIRCUIT, ASYNC_FLOOR, ASYNC_CIRCUIT, JOURNAL_FLOOR];

/** The median peak RSS (MB) of the children that ran `spec`, and how many there were. */
export function medianPeak(
  reports: readonly RssChildReport[],
  spec: SystemSpec,
): { mb: number; n: number } | undefined {
  const peaks = reports.filter((report) => report.spec !== undefined && sameSpec(report.spec, spec));
  return peaks.length === 0 ? undefined : { mb: median(peaks.map((report) => report.peakRssMb)), n: peaks.length };
}

/** Peak RSS of `runLoop` with an `InMemoryJournal` over the async floor's, each in fresh child processes. */
export const journalRssGoal: GoalRow = {
  order: 40,
  path: 'peak RSS, `runLoop` + `InMemoryJournal`, async tool, K=8 S=500 T=1',
  goal: `≤ ${JOURNAL_RSS_LIMIT}× the floor's`,
  phases: ['rss'],
  judge({ rssGoal, options }) {
    const entry = rssGoal[0];
    if (entry === undefined) return NOT_MEASURED;
    const journaled = medianPeak(entry.reports, JOURNALED_CIRCUIT);
    const floor = medianPeak(entry.reports, ASYNC_FLOOR);
    if (journaled === undefined || floor === undefined) return NOT_MEASURED;
    const plain = medianPeak(entry.reports, ASYNC_CIRCUIT);
    const floorJournal = medianPeak(entry.reports, JOURNAL_FLOOR);
    const ratio = journaled.mb / floor.mb;
    const quick = options.quick ? ' (quick run: smaller S than the goal)' : '';
    return {
      measured:
        `${formatRatio(ratio)} at ${scenarioLabel(entry.scenario)}${quick}: ${formatNumber(journaled.mb)} MB ` +
        `(median of ${journaled.n} processes)` +
        (plain === undefined ? '' : `; without the journal ${formatNumber(plain.mb)} MB`) +
        (floorJournal === undefined
          ? ''
          : `; the hand-written floor keeping a checkable journal ${formatNumber(floorJournal.mb)} MB ` +
            `(${formatRatio(floorJournal.mb / floor.mb)} the floor's)`),
      pass: ratio <= JOURNAL_RSS_LIMIT,
      peer: `floor ${formatNumber(floor.mb)} MB`,
    };
  },
};
