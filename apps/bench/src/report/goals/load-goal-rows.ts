import { readdirSync } from 'node:fs';
import type { GoalRow } from './goal-row.js';

const ROW_FILE = /-goal\.(js|ts)$/;

function isGoalRow(value: unknown): value is GoalRow {
  return typeof value === 'object' && value !== null && typeof (value as GoalRow).judge === 'function';
}

/**
 * Every goal row: each `*-goal.js` file of this folder, each of its exported `GoalRow`s, in `order`. A file
 * per row, found rather than listed, so that rows added side by side never touch the same lines.
 */
export async function loadGoalRows(): Promise<GoalRow[]> {
  const folder = new URL('./', import.meta.url);
  const rows: GoalRow[] = [];
  for (const file of readdirSync(folder)
    .filter((name) => ROW_FILE.test(name) && !name.endsWith('.d.ts'))
    .sort()) {
    const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (isGoalRow(value)) rows.push(value);
  }
  return rows.sort((a, b) => a.order - b.order);
}
