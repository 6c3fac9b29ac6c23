import { type GoalRow, NOT_MEASURED } from './goal-row.js';

export const REALISTIC_FLOOR_LIMIT = 2;

/**
 * The realistic cell (see `realistic/measure-realistic-cell.ts`): `runLoop` at its defaults on a tool of six
 * required properties and ~190-character arguments, against the hand-written floor doing the same parse,
 * validation, call and append, each in fresh processes; judged on the steady state, the cold start beside.
 */
export const realisticCellGoal: GoalRow = {
  order: 25,
  path: '`runLoop` at its defaults (no `runId`, provenance on) on a six-property schema, ~190-character arguments, async tool, K=8 S=100',
  goal: `≤ ${REALISTIC_FLOOR_LIMIT}× floor (same parse, validator, tool, append)`,
  phases: ['realistic'],
  judge: ({ realistic }) => {
    if (realistic === undefined) return NOT_MEASURED;
    const { warmUs, coldUs } = realistic;
    const ratio = warmUs.defaults / warmUs.floor;
    const aside = (name: string, value: number) => `${name} ${(value / warmUs.floor).toFixed(2)}×`;
    return {
      measured:
        `${ratio.toFixed(2)}× (${warmUs.defaults.toFixed(2)} against ${warmUs.floor.toFixed(2)} CPU µs/call, steady state, ` +
        `median of ${realistic.rounds} fresh processes each); ${aside('with `runId` given', warmUs.runId)}, ` +
        `${aside('`provenance: false`', warmUs.noProvenance)}, ${aside('both', warmUs.runIdNoProvenance)}; ` +
        `cold (first ${realistic.coldRuns} runs of a fresh process): ${(coldUs.defaults / coldUs.floor).toFixed(2)}× ` +
        `(${coldUs.defaults.toFixed(2)} against ${coldUs.floor.toFixed(2)})`,
      pass: Number.isFinite(ratio) ? ratio <= REALISTIC_FLOOR_LIMIT : undefined,
      peer: `floor ${warmUs.floor.toFixed(2)} CPU µs/call (cold ${coldUs.floor.toFixed(2)}); arguments ${realistic.argumentChars.toFixed(0)} characters on average`,
    };
  },
};
