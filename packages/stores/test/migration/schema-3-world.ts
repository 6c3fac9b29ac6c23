// The runs of a store written by @toolcircuit/stores 0.1.0 at schema 3 (the last layout that rewrote a
// run's whole state every turn), and how the current release goes on with them. `make-schema-3-snapshot.ts`
// wrote the checked-in snapshot with that release; the tools here must stay as they were then (same names,
// schemas and rights): a run refuses to go on under a changed catalogue.
import { createCatalogue, createSession, defineTool, everySession, ProviderError } from '@toolcircuit/core';
import type { ScriptedStep } from '@toolcircuit/testing';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';

/** Tool executions, by `runId/callId`, in this process. */
export type Executions = Map<string, number>;

export function schema3Catalogue(executions: Executions, hang: (key: string) => boolean = () => false) {
  const count = (key: string) => executions.set(key, (executions.get(key) ?? 0) + 1);
  return createCatalogue([
    defineTool({
      name: 'note',
      description: 'Writes a note. Counts its executions.',
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
        additionalProperties: false,
      },
      right: everySession,
      run: (input, context) => {
        const key = `${context.runId}/${context.callId}`;
        count(key);
        return hang(key) ? new Promise<string>(() => {}) : `noted ${input.n}: ${'a long enough note '.repeat(8)}`;
      },
    }),
    defineTool({
      name: 'pay',
      description: 'Pays. Irreversible.',
      inputSchema: {
        type: 'object',
        properties: { amount: { type: 'integer' } },
        required: ['amount'],
        additionalProperties: false,
      },
      right: everySession,
      irreversible: true,
      run: (input, context) => {
        count(`${context.runId}/${context.callId}`);
        return `paid ${input.amount}`;
      },
    }),
  ]);
}

export const schema3Session = () => createSession({ id: 'session-3', humanId: 'olga' });

export const schema3Input = [{ role: 'user' as const, content: 'Note three things, then pay 12.' }];

const note = (id: string, n: number) => toolCallsTurn([{ id, name: 'note', input: { n } }]);

/** Played before the snapshot: three runs, left paused, in a dead worker's hands, and interrupted. */
export const before: Record<'paused' | 'died' | 'overloaded', ScriptedStep[]> = {
  // Two notes, then a payment that waits for the human.
  paused: [note('p1', 1), note('p2', 2), toolCallsTurn([{ id: 'pay', name: 'pay', input: { amount: 12 } }])],
  // Two notes; the worker dies inside the second (it hangs, and the snapshot is taken meanwhile).
  died: [note('d1', 1), note('d2', 2)],
  // A note, then the provider fails: the run is stored interrupted, with everything played.
  overloaded: [
    note('o1', 1),
    () => {
      throw new ProviderError({
        provider: 'scripted',
        code: 'overloaded',
        message: 'overloaded (529)',
        retryable: true,
      });
    },
  ],
};

/** Played after the upgrade: each run goes on for two more turns and finishes. */
export const after: Record<'paused' | 'died' | 'overloaded', ScriptedStep[]> = {
  paused: [note('p3', 3), note('p4', 4), textTurn('Paid 12, four notes.')],
  died: [note('d3', 3), note('d4', 4), textTurn('Four notes, one of unknown outcome.')],
  overloaded: [note('o2', 2), note('o3', 3), textTurn('Three notes.')],
};
