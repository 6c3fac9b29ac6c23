// Leases, run against every store (memory, SQLite, PostgreSQL): a worker renews the lease of the run it is
// running, so a sweep leaves a long turn alone; a run whose worker stopped renewing is listed as expired and
// taken over by exactly one of the workers sweeping, and a call that had started is never run again.
import { randomUUID } from 'node:crypto';
import { createCatalogue, defineTool, everySession } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimLostError, createDurableRunner, type DurableStore, type RecoveredRun } from '../../src/index.js';
import { marie, startPaused, user, world } from '../support/world.js';
import type { StoreFactory, StoreHarness } from './store-conformance.js';

/** A reversible tool that counts its executions and waits at a gate the test opens. */
function gatedTool() {
  const executions: string[] = [];
  let open: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const tool = defineTool({
    name: 'archive_case',
    description: 'Archive a case file.',
    inputSchema: {
      type: 'object',
      properties: { number: { type: 'string' } },
      required: ['number'],
      additionalProperties: false,
    },
    right: everySession,
    run: async ({ number }) => {
      executions.push(number);
      entered();
      await gate;
      return `archived ${number}`;
    },
  });
  return { catalogue: createCatalogue([tool]), executions, open: () => open(), inside };
}

const archiveTurn = () => toolCallsTurn([{ id: 'archive', name: 'archive_case', input: { number: 'A-1234' } }]);
const archived = textTurn('Case A-1234 is archived.');

/** Polls a condition (no timing assertion: it only waits, and fails after a generous bound). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 3000; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what}: not reached`);
}

async function leaseOf(store: DurableStore, runId: string): Promise<string> {
  return (await store.getRun(runId))?.claim?.leaseExpiresAt ?? '';
}

export function describeLeaseConformance(name: string, factory: StoreFactory): void {
  describe(`leases: ${name}`, () => {
    let harness: StoreHarness | undefined;
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    it('a worker renews its lease while a long call runs: the sweep of another worker leaves the run alone', async () => {
      harness = await factory();
      const { store, second } = harness;
      const gated = gatedTool();
      const runner = createDurableRunner({
        store,
        catalogue: gated.catalogue,
        model: createScriptedModel([archiveTurn(), archived]),
        leaseMs: 3000,
      });
      const running = runner.start({ session: marie(), messages: user, runId: 'run-long' });
      await gated.inside;
      const first = await leaseOf(store, 'run-long');
      // Wait past the first lease: without renewals the run would be listed as expired now.
      await until(async () => Date.now() > Date.parse(first) + 200, 'the first lease ended');
      expect(await leaseOf(store, 'run-long')).not.toBe(first);
      const sweeper = createDurableRunner({
        store: second,
        catalogue: gated.catalogue,
        model: createScriptedModel([]),
      });
      expect(await second.listExpiredClaims({ at: new Date().toISOString() })).toEqual([]);
      expect(await sweeper.recoverExpired({ sessionFor: () => marie() })).toEqual([]);
      gated.open();
      const result = await running;
      expect(result.status).toBe('completed');
      expect(gated.executions).toEqual(['A-1234']);
      // The claim ended with the run: nothing is left to renew or to list.
      expect((await store.getRun('run-long'))?.claim).toBeUndefined();
      expect(await store.listExpiredClaims({ at: new Date(Date.now() + 3_600_000).toISOString() })).toEqual([]);
    });

    it('a run whose worker stopped renewing is taken over by exactly one of two sweeping workers; its started call is reported unknown, not run again', async () => {
      harness = await factory();
      const { store, second } = harness;
      const gated = gatedTool();
      // This worker stops inside the call and never renews (a lease of 0 is not renewed): a dead worker.
      const dead = createDurableRunner({
        store,
        catalogue: gated.catalogue,
        model: createScriptedModel([archiveTurn(), archived]),
        workerId: 'dead',
        leaseMs: 0,
      });
      const stuck = dead.start({ session: marie(), messages: user, runId: 'run-orphan' }).catch((error) => error);
      await gated.inside;
      const lease = await leaseOf(store, 'run-orphan');
      await until(async () => Date.now() > Date.parse(lease), 'the lease ended');
      const expired = await second.listExpiredClaims({ at: new Date(Date.now() + 1).toISOString() });
      expect(expired).toMatchObject([
        { runId: 'run-orphan', sessionId: 'session-7', humanId: 'marie', workerId: 'dead' },
      ]);

      const sweepers = [store, second].map((handle, index) =>
        createDurableRunner({
          store: handle,
          catalogue: gated.catalogue,
          model: createScriptedModel([archived]),
          workerId: `live-${index}`,
        }),
      );
      const outcomes: RecoveredRun[] = (
        await Promise.all(sweepers.map((sweeper) => sweeper.recoverExpired({ sessionFor: () => marie() })))
      ).flat();
      const recovered = outcomes.filter((outcome) => outcome.outcome === 'recovered');
      expect(recovered).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.outcome !== 'recovered' && outcome.outcome !== 'taken')).toEqual([]);
      const [only] = recovered;
      expect(only?.outcome === 'recovered' && only.result.status).toBe('completed');
      expect(only?.outcome === 'recovered' && only.result.unknownOutcomes).toEqual(['archive']);
      expect(gated.executions).toEqual(['A-1234']);

      // The dead worker, if it ever wakes, writes nothing: its claim was taken over.
      gated.open();
      expect(await stuck).toBeInstanceOf(ClaimLostError);
      expect(gated.executions).toEqual(['A-1234']);
      expect((await store.getRun('run-orphan'))?.status).toBe('completed');
    });

    it('renewing a claim that is not held fails and changes nothing; paused and finished runs are never listed', async () => {
      harness = await factory();
      const { store } = harness;
      await startPaused(world(), store, 'run-paused');
      const before = await store.getRun('run-paused');
      await expect(
        store.renewClaim({ runId: 'run-paused', token: randomUUID(), leaseExpiresAt: new Date().toISOString() }),
      ).rejects.toBeInstanceOf(ClaimLostError);
      expect(await store.getRun('run-paused')).toEqual(before);
      expect(await store.listExpiredClaims({ at: new Date(Date.now() + 3_600_000).toISOString() })).toEqual([]);
    });
  });
}
