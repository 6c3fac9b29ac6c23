import type { FallbackCost } from './measure-fallback-cost.js';

const us = (value: number) => value.toFixed(2);
const usd = (value: number | 'unknown') => (value === 'unknown' ? 'unknown' : `$${value.toFixed(6)}`);

/** The `fallback` phase's section of the report. */
export function formatFallbackReport(cost: FallbackCost): string {
  return [
    `## A fallback list that never fails, against one model (${cost.turns} turns of one lookup, \`runLoop\`, in-process model)`,
    '',
    '| run | CPU µs per turn (median) | samples | what the run cost (`LoopResult.cost`) |',
    '|---|---|---|---|',
    `| one model | ${us(cost.oneUs)} | ${cost.samples.one.map(us).join(', ')} | ${usd(cost.oneUsd)} |`,
    `| \`[model, spare]\`, the spare never asked | ${us(cost.listUs)} | ${cost.samples.list.map(us).join(', ')} | ${usd(cost.listUsd)} |`,
    '',
    `Ratio ${(cost.listUs / cost.oneUs).toFixed(2)}× (median of ${cost.rounds} alternating rounds, a GC before each).`,
  ].join('\n');
}
