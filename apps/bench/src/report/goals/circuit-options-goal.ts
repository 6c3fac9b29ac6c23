import {
  ALL_OPTIONS,
  JOURNAL_FLOOR,
  JOURNALED_CIRCUIT,
  STREAM_CIRCUIT,
  STREAM_FLOOR,
  ZOD_CIRCUIT,
} from '../../measure/path-plan.js';
import { type Scenario, scenarioLabel } from '../../scenario/scenario.js';
import type { SystemSpec } from '../../systems/bench-system.js';
import type { BenchResults } from '../bench-results.js';
import { formatNumber, formatRatio } from '../format-table.js';
import { type GoalRow, type GoalVerdict, NOT_MEASURED } from './goal-row.js';
import { describeAt, pathRatios, sameScenario, worstOf } from './path-ratios.js';

export const OPTIONS_FLOOR_LIMIT = 2.5;

const OPTIONS: readonly { readonly spec: SystemSpec; readonly name: string }[] = [
  { spec: JOURNALED_CIRCUIT, name: 'journal' },
  { spec: STREAM_CIRCUIT, name: 'streamLoop' },
  { spec: ZOD_CIRCUIT, name: 'Zod' },
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
    for (const peer of PEER_FLOORS) {
      const beside = overPeerFloor(paths, peer, options.goalCell);
      if (beside !== undefined) parts.push(beside);
    }
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

/** Hand-written floors doing what an option does in its least form, each beside that option. */
const PEER_FLOORS: readonly { readonly option: SystemSpec; readonly floor: SystemSpec; readonly what: string }[] = [
  { option: JOURNALED_CIRCUIT, floor: JOURNAL_FLOOR, what: 'keeping a checkable journal' },
  { option: STREAM_CIRCUIT, floor: STREAM_FLOOR, what: 'streaming each call and result to its reader' },
];

/**
 * At the goal cell: the hand-written floor doing the option's work over the plain floor (the part of the
 * row's ratio no implementation avoids), and toolcircuit with the option over that floor.
 */
function overPeerFloor(paths: BenchResults['paths'], peer: (typeof PEER_FLOORS)[number], cell: Scenario) {
  const option = pathRatios(paths, peer.option).find((entry) => sameScenario(entry.scenario, cell));
  const floor = pathRatios(paths, peer.floor).find((entry) => sameScenario(entry.scenario, cell));
  if (option === undefined || floor === undefined) return undefined;
  return (
    `the hand-written floor ${peer.what}: ${formatRatio(floor.ratio)} the floor at the goal cell ` +
    `(${formatNumber(floor.circuitUs)} CPU µs/call), toolcircuit's ${formatRatio(option.circuitUs / floor.circuitUs)} that`
  );
}
