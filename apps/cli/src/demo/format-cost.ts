import type { Cost } from '@toolcircuit/core';

/** A run's cost as the demo prints it: dollars to the millionth, or `unknown` and why (never a zero). */
export function formatCost(cost: Cost): string {
  return cost.usd === 'unknown' ? `unknown (${cost.why})` : `$${cost.usd.toFixed(6)}`;
}
