import { REALISTIC_LABELS, REALISTIC_SYSTEMS, type RealisticCell } from './measure-realistic-cell.js';

const us = (value: number) => value.toFixed(2);
const ratio = (value: number) => `${value.toFixed(2)}×`;

/** The `realistic` phase's section of the report. */
export function formatRealisticReport(cell: RealisticCell): string {
  const { floor } = cell.warmUs;
  const coldFloor = cell.coldUs.floor;
  return [
    `## The realistic cell: a six-property schema, ${cell.argumentChars.toFixed(0)}-character arguments, no \`runId\`, defaults (K=${cell.calls} S=${cell.steps}, async tool)`,
    '',
    '| configuration | steady CPU µs/call | over the floor | cold: first runs, CPU µs/call | over the floor |',
    '|---|---|---|---|---|',
    ...REALISTIC_SYSTEMS.map(
      (system) =>
        `| ${REALISTIC_LABELS[system]} | ${us(cell.warmUs[system])} | ${ratio(cell.warmUs[system] / floor)} | ${us(cell.coldUs[system])} | ${ratio(cell.coldUs[system] / coldFloor)} |`,
    ),
    '',
    `Each configuration alone in a fresh process, ${cell.runs} conversations timed from the first: "cold" is the mean of the first ${cell.coldRuns} (JIT compilation included, CPU time of every thread of the process), "steady" the median of the last ${cell.steadyRuns}; medians of ${cell.rounds} rounds, the processes one after the other in an order rotated each round.`,
  ].join('\n');
}
