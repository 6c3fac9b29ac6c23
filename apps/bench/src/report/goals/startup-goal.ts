import type { Phase } from '../../bench-options.js';
import type { BenchResults } from '../bench-results.js';
import { adapterImportRow, catalogueRow, coreImportRow, geminiRow, type StartupGoalRow } from '../startup-goals.js';
import type { GoalRow } from './goal-row.js';

/**
 * The startup rows (the corpus catalogue, cold imports) and the Gemini row are judged by `startup-goals.ts`,
 * which also prints their own table; each row here hands it the figures of its phase. The path and goal
 * are the row's text with nothing measured.
 */
function startupRow(
  order: number,
  phases: readonly Phase[],
  judge: (results: Partial<BenchResults>) => StartupGoalRow,
): GoalRow {
  const { path, goal } = judge({});
  return {
    order,
    path,
    goal,
    phases,
    judge: (results) => {
      const { measured, pass, peer } = judge(results);
      return { measured, pass, peer };
    },
  };
}

export const corpusCatalogueGoal = startupRow(60, ['startup'], (r) => catalogueRow(r.corpusCatalogue));
export const coreImportGoal = startupRow(61, ['startup'], (r) => coreImportRow(r.coldImports));
export const adapterImportGoal = startupRow(62, ['startup'], (r) => adapterImportRow(r.coldImports));
export const geminiPerKbGoal = startupRow(63, ['wire'], (r) => geminiRow(r.wire));
