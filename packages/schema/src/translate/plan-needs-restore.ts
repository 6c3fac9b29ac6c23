import type { RestorePlan } from './restore-plan.js';

/** Whether any value under this plan can change when restored (follows recursive plans once). */
export function planNeedsRestore(plan: RestorePlan, seen: Set<RestorePlan> = new Set()): boolean {
  if (seen.has(plan)) return false;
  seen.add(plan);
  switch (plan.kind) {
    case 'same':
      return false;
    case 'json':
      return true;
    case 'object':
      return [...plan.properties.values()].some(
        (entry) => entry.nullMeansOmitted || planNeedsRestore(entry.plan, seen),
      );
    case 'array':
      return plan.prefix.some((item) => planNeedsRestore(item, seen)) || planNeedsRestore(plan.items, seen);
    case 'any-of':
      return plan.branches.some((branch) => planNeedsRestore(branch.plan, seen));
    case 'lazy':
      return planNeedsRestore(plan.resolve(), seen);
  }
}
