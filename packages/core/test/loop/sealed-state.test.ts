// Paused and interrupted states are plain data an application stores, often where others can write (a
// shared database, a client). With the loop's `seal` option each carries an HMAC under the application's
// key, and resumeLoop / continueLoop refuse one that was altered, forged, stripped of its seal or sealed
// under a key the application does not hold, before anything runs.
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  checkResume,
  confirmationFor,
  continueLoop,
  type InterruptedRun,
  InvalidLoopOptionsError,
  interruptedRunOfError,
  type LoopOptions,
  type Message,
  type PausedRun,
  ProviderError,
  resumeLoop,
  runLoop,
  type SealKey,
  type SealOptions,
  StateSealError,
} from '../../src/index.js';
import { injectedPayment, injectionWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const payment = injectedPayment;
const k1: SealKey = { id: 'k1', secret: 'a'.repeat(64) };
const k2: SealKey = { id: 'k2', secret: new Uint8Array(32).fill(7) };

function world(seal?: SealOptions) {
  const { paid, confirmations, catalogue, session, journal } = injectionWorld();
  const options = {
    catalogue,
    session,
    journal,
    confirmation: 'pause' as const,
    ...(seal === undefined ? {} : { seal }),
  } satisfies Omit<LoopOptions, 'model' | 'messages'>;
  return { paid, confirmations, options };
}

const user: Message[] = [{ role: 'user', content: 'Read my mail.' }];

/** Turn 1 reads the mail, turn 2 asks to pay: paused on the payment, gated by the mail. */
async function pausedRun(seal?: SealOptions) {
  const w = world(seal);
  const model = scripted([callsTurn([call('m1', 'read_mail', {})]), callsTurn([call('p1', 'pay', payment)])]);
  const result = await runLoop({ ...w.options, model, messages: user });
  if (result.paused === undefined) throw new Error('expected a pause');
  // Stored and read back, as an application does.
  return { ...w, paused: JSON.parse(canonicalJson(result.paused)) as PausedRun };
}

const approve = (paused: PausedRun) =>
  paused.pending.map((call) => ({ callId: call.callId, approved: true, inputDigest: call.inputDigest }));

/**
 * A later turn the model makes after the resume: the same payment again. Only the stale approval could run
 * it, and only if the mail no longer counted.
 */
const laterPayment = () =>
  scripted([callsTurn([call('p2', 'pay', payment)]), textTurn('done')]) satisfies LoopOptions['model'];

describe('a sealed paused run', () => {
  it('carries a seal under the current key and resumes when untouched', async () => {
    const { paused, paid, options } = await pausedRun({ key: k1 });
    expect(paused.seal?.keyId).toBe('k1');
    expect(paused.seal?.mac).toMatch(/^[0-9a-f]{64}$/);
    const result = await resumeLoop(paused, approve(paused), { ...options, model: scripted([textTurn('ok')]) });
    expect(result.status).toBe('completed');
    expect(paid()).toEqual([payment]);
  });

  const tamperings: [string, (paused: PausedRun) => PausedRun][] = [
    ['its untrusted sources emptied', (p) => ({ ...p, provenance: { sources: [] } })],
    [
      'its sources moved to a later turn',
      (p) => ({ ...p, provenance: { sources: (p.provenance?.sources ?? []).map((s) => ({ ...s, turn: 5 })) } }),
    ],
    [
      'the request shown to the human removed',
      (p) => ({ ...p, pending: p.pending.map(({ request: _request, ...call }) => call) }),
    ],
    ['its resume token replaced', (p) => ({ ...p, resumeToken: 'fresh' })],
    ['another human', (p) => ({ ...p, humanId: 'mallory' })],
  ];
  for (const [name, tamper] of tamperings) {
    it(`is refused with ${name}, and nothing runs`, async () => {
      const { paused, paid, confirmations, options } = await pausedRun({ key: k1 });
      const altered = tamper(paused);
      const resuming = resumeLoop(altered, approve(altered), { ...options, model: laterPayment() });
      await expect(resuming).rejects.toMatchObject({ name: 'StateSealError', problem: 'mismatch' });
      expect(() => checkResume(altered, approve(altered), options.session, options)).toThrow(StateSealError);
      expect(paid()).toEqual([]);
      expect(confirmations.outstanding()).toEqual([
        confirmationFor('pay', payment, { humanId: 'alice', anyRun: true }),
      ]);
    });
  }

  it('is refused without its seal when a key is configured', async () => {
    const { paused, paid, options } = await pausedRun({ key: k1 });
    const { seal: _seal, ...stripped } = paused;
    await expect(resumeLoop(stripped, approve(paused), { ...options, model: laterPayment() })).rejects.toMatchObject({
      name: 'StateSealError',
      problem: 'missing',
      message: /carries no seal/,
    });
    expect(paid()).toEqual([]);
  });

  it('is refused when sealed under a key the application does not hold, or when no key is configured', async () => {
    const { paused, paid, options } = await pausedRun({ key: k1 });
    await expect(
      resumeLoop(paused, approve(paused), { ...options, seal: { key: k2 }, model: laterPayment() }),
    ).rejects.toMatchObject({ problem: 'unknown_key', message: /key "k1".*retiredKeys/ });
    const { seal: _seal, ...unsealedOptions } = options;
    await expect(
      resumeLoop(paused, approve(paused), { ...unsealedOptions, model: laterPayment() }),
    ).rejects.toMatchObject({ problem: 'no_key' });
    expect(paid()).toEqual([]);
  });

  it('a forged seal (a MAC under another secret with the same key id) is refused', async () => {
    const forger = await pausedRun({ key: { id: 'k1', secret: 'b'.repeat(64) } });
    const { options, paid } = await pausedRun({ key: k1 });
    await expect(
      resumeLoop(forger.paused, approve(forger.paused), { ...options, model: laterPayment() }),
    ).rejects.toMatchObject({ problem: 'mismatch' });
    expect(paid()).toEqual([]);
  });

  it('keys rotate: a state sealed under a retired key resumes, and what it leaves is sealed under the new one', async () => {
    const { paused, paid, options } = await pausedRun({ key: k1 });
    const model = scripted([callsTurn([call('p2', 'pay', { ...payment, amount: 1 })]), textTurn('ok')]);
    const result = await resumeLoop(paused, approve(paused), {
      ...options,
      seal: { key: k2, retiredKeys: [k1] },
      model,
    });
    expect(paid()).toEqual([payment]);
    expect(result.status).toBe('paused');
    expect(result.paused?.seal?.keyId).toBe('k2');
  });

  it('refuses a key that cannot work, naming the option', async () => {
    const { options } = world();
    const model = scripted([textTurn('ok')]);
    await expect(
      runLoop({ ...options, model, messages: user, seal: { key: { id: 'k', secret: 'short' } } }),
    ).rejects.toThrow(InvalidLoopOptionsError);
    await expect(
      runLoop({
        ...options,
        model,
        messages: user,
        seal: { key: k1, retiredKeys: [{ id: 'k1', secret: 'c'.repeat(64) }] },
      }),
    ).rejects.toThrow(/two different secrets.*"k1"/);
  });
});

describe('a sealed interrupted run', () => {
  async function interruptedRun(seal: SealOptions) {
    const w = world(seal);
    const model = scripted([
      callsTurn([call('m1', 'read_mail', {})]),
      () => {
        throw new ProviderError({ provider: 'test', code: 'overloaded', message: '529', retryable: true });
      },
    ]);
    const failed = await runLoop({ ...w.options, model, messages: user }).catch((error: unknown) => error);
    const interrupted = interruptedRunOfError(failed);
    if (interrupted === undefined) throw new Error('expected an interrupted run');
    return { ...w, interrupted: JSON.parse(canonicalJson(interrupted)) as InterruptedRun };
  }

  it('continues when untouched, and is refused with its sources emptied', async () => {
    const { interrupted, paid, options } = await interruptedRun({ key: k1 });
    expect(interrupted.seal?.keyId).toBe('k1');
    const emptied = { ...interrupted, provenance: { sources: [] } };
    await expect(continueLoop(emptied, { ...options, model: laterPayment() })).rejects.toMatchObject({
      name: 'StateSealError',
      problem: 'mismatch',
    });
    expect(paid()).toEqual([]);
    const result = await continueLoop(interrupted, { ...options, model: laterPayment() });
    expect(result.status).toBe('paused');
    expect(paid()).toEqual([]);
  });

  it("a paused run's seal does not pass for an interrupted run's", async () => {
    const { interrupted, options } = await interruptedRun({ key: k1 });
    const { paused } = await pausedRun({ key: k1 });
    const relabelled = { ...interrupted, seal: paused.seal };
    await expect(continueLoop(relabelled as InterruptedRun, { ...options, model: laterPayment() })).rejects.toThrow(
      StateSealError,
    );
  });
});

describe('without a key (the application vouches for where it keeps its states)', () => {
  it('states are not sealed, and a source moved to a later turn still gates the calls after its result', async () => {
    const { paused, paid, options } = await pausedRun();
    expect(paused.seal).toBeUndefined();
    const moved: PausedRun = {
      ...paused,
      provenance: { sources: (paused.provenance?.sources ?? []).map((source) => ({ ...source, turn: 7 })) },
    };
    const result = await resumeLoop(moved, approve(moved), { ...options, model: laterPayment() });
    // The approved payment ran; the later one, confirmable only by the stale approval, waits for the human.
    expect(paid()).toEqual([payment]);
    expect(result.status).toBe('paused');
    const sources = result.paused?.pending[0]?.request?.untrustedSources ?? [];
    // The mail at the turn it was read (not 7), and the approved payment's own output, read on turn 2.
    expect(sources.map((source) => [source.callId, source.turn])).toEqual([
      ['m1', 1],
      ['p1', 2],
    ]);
  });
});
