// A worker process reads an untrusted mail, then is SIGKILLed inside `start` before the pause of an
// irreversible payment is stored (inside the next turn's calls, or in the next model request). Another
// process recovers the run: the model is told the payment was not run and asks for it again, the human is
// shown the mail as an untrusted source and approves with the digest shown, and the payment runs exactly
// once. A confirmation of the same payment given before the mail was read is never used.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { confirmationFor, createSession, InMemoryConfirmations, type SealKey, toolResultText } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableRunner, RunNotResumableError } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { buildForChildren, childAtReady, effectsIn } from '../support/child-builds.js';
import { rentCatalogue, rentPayment } from '../support/rent-world.js';
import { toolReplies } from '../support/world.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-kill-reask-'));

beforeAll(buildForChildren, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Phase = 'during-turn' | 'next-model';
const payment = rentPayment;

/** The child's catalogue, with its side effects appended to `effects` (one JSON line each). */
function catalogue(effects: string) {
  return rentCatalogue((tool, input) =>
    appendFileSync(effects, `${JSON.stringify({ pid: process.pid, tool, input })}\n`),
  );
}

async function killThenRecover(phase: Phase, sealKey?: SealKey) {
  const dir = mkdtempSync(join(root, `${phase}-`));
  const file = join(dir, 'toolcircuit.sqlite');
  const effects = join(dir, 'effects.log');
  const ready = join(dir, 'ready');
  const child = await childAtReady(join(here, 'fixtures', 'reask-child.mjs'), {
    file,
    runId: 'run-r',
    phase,
    effects,
    ready,
    ...(sealKey === undefined ? {} : { sealKey }),
  });
  expect(child.said).toBe(phase);
  expect(await child.kill()).toBe('SIGKILL');

  const store = await openSqliteStore({ file });
  // The payment was confirmed before the run by someone who never saw the mail: stale once it was read.
  const confirmations = new InMemoryConfirmations([confirmationFor('pay', payment, { humanId: 'ines', anyRun: true })]);
  const session = createSession({ id: 'session-9', humanId: 'ines', confirmations });
  const runner = createDurableRunner({
    store,
    catalogue: catalogue(effects),
    // The model asks for the payment again (after "not run, call it again", or as the turn asked again).
    model: createScriptedModel([
      toolCallsTurn([{ id: 'p2', name: 'pay', input: payment }]),
      textTurn('The rent is paid.'),
    ]),
    workerId: 'recoverer',
    ...(sealKey === undefined ? {} : { seal: { key: sealKey } }),
  });
  const recovered = await runner.recover('run-r', { session });
  return { store, runner, session, confirmations, recovered, effects, childPid: child.pid };
}

describe('a worker killed before the pause of an irreversible call was stored, then recovered elsewhere', () => {
  for (const phase of ['during-turn', 'next-model'] as const) {
    for (const sealed of [false, true]) {
      it(`${phase}${sealed ? ', sealed states' : ''}: the re-asked call is shown with its sources, approved, and runs once`, async () => {
        const key = sealed ? { id: 'k-2026', secret: 'r'.repeat(48) } : undefined;
        const { store, runner, session, confirmations, recovered, effects } = await killThenRecover(phase, key);
        if (phase === 'during-turn') {
          // The payment of the killed turn was never started: the model was told so, and asked again.
          const [, reply] = toolReplies(recovered.messages);
          const notRun = reply?.content.find((part) => part.callId === 'p1');
          expect(toolResultText(notRun?.content ?? '')).toMatch(/was not run.*call it again/s);
          // The killed worker left no entry for it; the recovery journals its answer.
          const entries = (await store.readJournal({ runId: 'run-r' })).map(({ record }) => record);
          expect(
            entries
              .filter((record) => record.kind === 'call' && record.callId === 'p1')
              .map((record) => record.kind === 'call' && record.verdict),
          ).toEqual(['refused']);
        }
        // The re-asked payment waits for the human, who is shown the mail it may come from.
        expect(recovered.status).toBe('paused');
        const [pending] = recovered.paused?.pending ?? [];
        expect(pending?.callId).toBe('p2');
        expect(pending?.request?.untrustedSources.map((source) => [source.callId, source.toolName])).toEqual([
          ['m1', 'read_mail'],
        ]);
        expect(pending?.request?.flaggedArguments.map((flag) => flag.path).sort()).toEqual(['/amount', '/iban']);
        // The confirmation from before the mail was not used.
        expect(effectsIn<{ tool: string }>(effects).filter((effect) => effect.tool === 'pay')).toEqual([]);
        expect(confirmations.outstanding()).toEqual([
          confirmationFor('pay', payment, { humanId: 'ines', anyRun: true }),
        ]);
        if (sealed) expect((await store.getRun('run-r'))?.paused?.seal?.keyId).toBe('k-2026');

        const approval = [{ callId: 'p2', approved: true, inputDigest: pending?.inputDigest ?? '' }];
        const result = await runner.resume('run-r', approval, { session });
        expect(result.status).toBe('completed');
        expect(result.text).toBe('The rent is paid.');
        const paid = effectsIn<{ pid: number; tool: string; input: unknown }>(effects).filter((e) => e.tool === 'pay');
        expect(paid).toEqual([{ pid: process.pid, tool: 'pay', input: payment }]);

        // Exactly once: the same approval again changes nothing.
        await expect(runner.resume('run-r', approval, { session })).rejects.toBeInstanceOf(RunNotResumableError);
        expect(effectsIn<{ tool: string }>(effects).filter((effect) => effect.tool === 'pay')).toHaveLength(1);
        expect(confirmations.outstanding()).toEqual([
          confirmationFor('pay', payment, { humanId: 'ines', anyRun: true }),
        ]);
        expect((await store.verifyJournal()).ok).toBe(true);
        await store.close();
      });
    }
  }
});
