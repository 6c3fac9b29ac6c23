import { ALL_OPTIONS, JOURNAL_FLOOR } from '../../measure/path-plan.js';
import { type Scenario, scenarioLabel } from '../../scenario/scenario.js';
import type { SystemSpec } from '../../systems/bench-system.js';
import type { BenchResults } from '../bench-results.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, type GoalVerdict, NOT_MEASURED } from './goal-row.js';
import { describeAt, pathRatios, sameScenario, worstOf } from './path-ratios.js';

export const OPTIONS_FLOOR_LIMIT = 2.5;

const JOURNAL_SPEC: SystemSpec = { id: 'toolcircuit', tool: 'async', journal: true };
const OPTIONS: readonly { readonly spec: SystemSpec; readonly name: string }[] = [
  { spec: JOURNAL_SPEC, name: 'journal' },
  { spec: { id: 'toolcircuit', tool: 'async', loop: 'stream' }, name: 'streamLoop' },
  { spec: { id: 'toolcircuit', tool: 'async', schema: 'zod' }, name: 'Zod' },
];

/**
 * The options an application leaves on, each on its own: an `InMemoryJournal`, `streamLoop` with every
 * event read, Zod schemas; async tool, in every cell. All three at once is shown beside (goal cell).
 */
export const circuitOptionsGoal: GoalRow = {
  order: 20,
  path: '`runLoop` + `InMemoryJournal`; `streamLoop`, every event read; Zod schemas (each; async tool, every cell)',
  goal: `≤ ${OPTIONS_FLOOR_LIMIT}× floor`,
  phases: ['paths'],
  judge({ paths, options }) {
    const parts: string[] = [];
    let worstRatio: number | undefined;
    let profile: GoalVerdict['profile'];
    for (const { spec, name } of OPTIONS) {
      const ratios = pathRatios(paths, spec);
      const worst = worstOf(ratios);
      if (worst === undefined) return NOT_MEASURED;
      const atGoal = ratios.find((entry) => sameScenario(entry.scenario, options.goalCell));
      parts.push(
        `${name} ≤ ${formatRatio(worst.ratio)} (worst at ${scenarioLabel(worst.scenario)}` +
          `${atGoal === undefined ? '' : `; ${formatRatio(atGoal.ratio)} at the goal cell`})`,
      );
      if (worstRatio === undefined || worst.ratio > worstRatio) {
        worstRatio = worst.ratio;
        profile = { scenario: worst.scenario, spec };
      }
    }
    const journalFloor = journalFloorAt(paths, options.goalCell);
    if (journalFloor !== undefined) parts.push(journalFloor);
    const together = describeAt(pathRatios(paths, ALL_OPTIONS), options.goalCell);
    if (together !== undefined) parts.push(`all three at once: ${together}`);
    const floor = pathRatios(paths, OPTIONS[0]?.spec ?? ALL_OPTIONS).find((entry) =>
      sameScenario(entry.scenario, options.goalCell),
    )?.floorUs;
    return {
      measured: parts.join('; '),
      pass: worstRatio === undefined ? undefined : worstRatio <= OPTIONS_FLOOR_LIMIT,
      peer: floor === undefined ? '' : `floor ${formatNumber(floor)} CPU µs/call at ${scenarioLabel(options.goalCell)}`,
      ...(profile === undefined ? {} : { profile }),
    };
  },
};

/**
 * At the goal cell: the hand-written floor keeping a checkable journal, over the plain floor (the part of
 * the journal row's ratio no implementation avoids), and toolcircuit's journaled `runLoop` over it.
 */
function journalFloorAt(paths: BenchResults['paths'], cell: Scenario): string | undefined {
  const journaled = pathRatios(paths, JOURNAL_SPEC).find((entry) => sameScenario(entry.scenario, cell));
  const floorWithJournal = pathRatios(paths, JOURNAL_FLOOR).find((entry) => sameScenario(entry.scenario, cell));
  if (journaled === undefined || floorWithJournal === undefined) return undefined;
  return (
    `the hand-written floor keeping a checkable journal: ${formatRatio(floorWithJournal.ratio)} the floor at the goal cell ` +
    `(${formatNumber(floorWithJournal.circuitUs)} CPU µs/call), toolcircuit's journal ${formatRatio(journaled.circuitUs / floorWithJournal.circuitUs)} that`
  );
}
