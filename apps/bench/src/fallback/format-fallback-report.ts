import type { FallbackCost } from './one-or-list.js';

const us = (value: number) => value.toFixed(2);
const usd = (value: number | 'unknown') => (value === 'unknown' ? 'unknown' : `$${value.toFixed(6)}`);

/** The `fallback` phase's section of the report: the list's own cost, then on an application's path. */
export function formatFallbackReport(inProcess: FallbackCost, overSdk: FallbackCost): string {
  return [
    '## A fallback list that never fails, against one model (`runLoop`, one call a turn)',
    '',
    '| model | run | CPU µs per turn (median) | samples | what the run cost (`LoopResult.cost`) |',
    '|---|---|---|---|---|',
    ...[inProcess, overSdk].flatMap((cost) => [
      `| ${cost.path}, ${cost.turns} turns | one model | ${us(cost.oneUs)} | ${cost.samples.one.map(us).join(', ')} | ${usd(cost.oneUsd)} |`,
      `| ${cost.path}, ${cost.turns} turns | \`[model, spare]\`, the spare never asked | ${us(cost.listUs)} | ${cost.samples.list.map(us).join(', ')} | ${usd(cost.listUsd)} |`,
    ]),
    '',
    ...[inProcess, overSdk].map(
      (cost) =>
        `${cost.path}: ratio ${cost.pairedRatio.toFixed(2)}× (median of ${cost.rounds} rounds' ratios, each round the two runs back to back, a GC before each), ${(cost.listUs / cost.oneUs).toFixed(2)}× between the medians.`,
    ),
  ].join('\n');
}
