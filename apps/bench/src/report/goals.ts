import type { BenchOptions } from '../bench-options.js';
import type { CellResult, MatrixCell } from '../measure/run-matrix.js';
import type { RssChildReport } from '../rss-child.js';
import { type Scenario, scenarioLabel } from '../scenario/scenario.js';
import type { SystemId } from '../systems/bench-system.js';
import { formatNumber, formatRatio } from './format-table.js';

export interface GoalVerdict {
  readonly goal: string;
  readonly measured: string;
  /** `undefined` when the run did not measure what the goal needs (a phase was left out). */
  readonly pass: boolean | undefined;
  /** Which toolcircuit cost to profile when it fails. */
  readonly profileCell?: Scenario;
}

export const FLOOR_RATIO_LIMIT = 3;
export const AI_RATIO_MINIMUM = 20;
export const FLATNESS_LIMIT = 1.5;
export const RSS_LIMIT_MB = 150;

export function resultOf(cell: MatrixCell | undefined, id: SystemId): CellResult | undefined {
  return cell?.results.find((result) => result.id === id && result.metrics !== undefined);
}

function ratioAt(cell: MatrixCell | undefined, top: SystemId, bottom: SystemId): number | undefined {
  const a = resultOf(cell, top)?.metrics;
  const b = resultOf(cell, bottom)?.metrics;
  return a === undefined || b === undefined ? undefined : a.perCallUs / b.perCallUs;
}

function sameScenario(a: Scenario, b: Scenario): boolean {
  return a.calls === b.calls && a.steps === b.steps && a.tools === b.tools;
}

/** The four goals, judged on figures of this run only. */
export function judgeGoals(
  cells: readonly MatrixCell[],
  rss: readonly { readonly scenario: Scenario; readonly reports: readonly RssChildReport[] }[],
  options: BenchOptions,
): GoalVerdict[] {
  const quickNote = options.quick ? ' (quick run: smaller S than the goal)' : '';
  const verdicts: GoalVerdict[] = [];

  // 1. Every cell: toolcircuit per call ≤ 3 × the floor per call (medians; the best runs are shown too,
  // because on a shared machine one busy moment can inflate a median).
  let worst: { ratio: number; cell: MatrixCell } | undefined;
  let best = 0;
  for (const cell of cells) {
    const circuit = resultOf(cell, 'toolcircuit')?.metrics;
    const floor = resultOf(cell, 'hand-written')?.metrics;
    if (circuit === undefined || floor === undefined) continue;
    const ratio = circuit.perCallUs / floor.perCallUs;
    best = Math.max(best, circuit.bestPerCallUs / floor.bestPerCallUs);
    if (worst === undefined || ratio > worst.ratio) worst = { ratio, cell };
  }
  const goalCell = cells.find((cell) => sameScenario(cell.scenario, options.goalCell));
  const atGoal = ratioAt(goalCell, 'toolcircuit', 'hand-written');
  verdicts.push({
    goal: `toolcircuit ≤ ${FLOOR_RATIO_LIMIT}× the hand-written floor per call (every cell)`,
    measured:
      worst === undefined
        ? 'not measured'
        : `worst ${formatRatio(worst.ratio)} at ${scenarioLabel(worst.cell.scenario)}; ` +
          `${formatRatio(atGoal)} at ${scenarioLabel(options.goalCell)}; best runs, worst cell: ${formatRatio(best)}`,
    pass: worst === undefined ? undefined : worst.ratio <= FLOOR_RATIO_LIMIT,
    ...(worst === undefined ? {} : { profileCell: options.goalCell }),
  });

  // 2. ≥ 20× cheaper than `ai` per call at K=8 S=100.
  const circuit = resultOf(goalCell, 'toolcircuit')?.metrics;
  const ai = resultOf(goalCell, 'ai')?.metrics;
  const aiRatio = circuit !== undefined && ai !== undefined ? ai.perCallUs / circuit.perCallUs : undefined;
  verdicts.push({
    goal: `toolcircuit ≥ ${AI_RATIO_MINIMUM}× cheaper than ai per call at K=8 S=100`,
    measured:
      aiRatio === undefined
        ? 'not measured'
        : `${formatRatio(aiRatio)} at ${scenarioLabel(options.goalCell)}${quickNote}`,
    pass: aiRatio === undefined ? undefined : aiRatio >= AI_RATIO_MINIMUM,
  });

  // 3. Flat: at the longest S, last-10 / first-10 < 1.5 in every (K, T).
  const longest = Math.max(...cells.map((cell) => cell.scenario.steps));
  let flattest: { ratio: number; cell: MatrixCell } | undefined;
  for (const cell of cells.filter((candidate) => candidate.scenario.steps === longest)) {
    const metrics = resultOf(cell, 'toolcircuit')?.metrics;
    if (metrics === undefined) continue;
    const ratio = metrics.last10Us / metrics.first10Us;
    if (flattest === undefined || ratio > flattest.ratio) flattest = { ratio, cell };
  }
  verdicts.push({
    goal: `flat per-step cost to S=500: last-10 / first-10 < ${FLATNESS_LIMIT} (every K, T)`,
    measured:
      flattest === undefined
        ? 'not measured'
        : `worst ${formatNumber(flattest.ratio)} at ${scenarioLabel(flattest.cell.scenario)}${quickNote}`,
    pass: flattest === undefined ? undefined : flattest.ratio < FLATNESS_LIMIT,
    ...(flattest === undefined ? {} : { profileCell: flattest.cell.scenario }),
  });

  // 4. Peak RSS at K=8 S=500 under 150 MB (its own child process).
  const target = options.rssCells.at(-1);
  const peak = rss
    .find((entry) => target !== undefined && sameScenario(entry.scenario, target))
    ?.reports.find((report) => report.system === 'toolcircuit')?.peakRssMb;
  verdicts.push({
    goal: `toolcircuit peak RSS at K=8 S=500 < ${RSS_LIMIT_MB} MB`,
    measured:
      peak === undefined || target === undefined
        ? 'not measured'
        : `${formatNumber(peak)} MB at ${scenarioLabel(target)}${quickNote}`,
    pass: peak === undefined ? undefined : peak < RSS_LIMIT_MB,
  });
  return verdicts;
}
