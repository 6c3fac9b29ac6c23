import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  type DataFlowOptions,
  defineTool,
  everySession,
  InMemoryConfirmations,
  InMemoryJournal,
  InvalidLoopOptionsError,
  InvalidResumeError,
  type JsonValue,
  type LoopOptions,
  type Message,
  type ModelTurn,
  type PausedRun,
  resumeLoop,
  runLoop,
  type Verdict,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const open = { type: 'object', additionalProperties: true } as const;
const mail = { from: 'billing@landlord.example', iban: 'FR7630006000011234567890189', amount: 1250, note: 'Rent' };

function world(extra: { trustedOnly?: boolean } = {}) {
  const paid: JsonValue[] = [];
  const tools = [
    defineTool({
      name: 'read_mail',
      description: 'Reads mail.',
      inputSchema: open,
      right: everySession,
      run: () => mail,
    }),
    defineTool({
      name: 'get_payees',
      description: "The user's saved payees.",
      inputSchema: open,
      right: everySession,
      outputTrust: 'trusted',
      run: () => ({ payees: [{ name: 'Garage Martin', iban: 'DE89370400440532013000' }] }),
    }),
    defineTool({
      name: 'send_money',
      description: 'Sends money.',
      inputSchema: open,
      right: everySession,
      irreversible: true,
      ...(extra.trustedOnly === true ? { trustedOnly: ['/iban', '/amount'] } : {}),
      run: (input) => {
        paid.push(input as JsonValue);
        return 'sent';
      },
    }),
  ];
  return { paid, catalogue: createCatalogue(tools) };
}

const payFromMail = { iban: 'FR7630006000011234567890189', amount: 1250 };

function setup(
  turns: readonly ModelTurn[],
  options: {
    dataFlow?: DataFlowOptions;
    confirmation?: 'pause' | 'refuse';
    messages?: Message[];
    declared?: boolean;
  } = {},
) {
  const { paid, catalogue } = world({ trustedOnly: options.declared === true });
  const journal = new InMemoryJournal();
  const verdicts: Verdict[] = [];
  const loop: LoopOptions = {
    model: scripted(turns),
    catalogue,
    session: createSession({ id: 's1', humanId: 'sam', confirmations: new InMemoryConfirmations() }),
    messages: options.messages ?? [{ role: 'user', content: 'Pay the rent the landlord mailed me.' }],
    journal,
    confirmation: options.confirmation ?? 'pause',
    hooks: { onCall: (event) => void verdicts.push(event.verdict) },
    ...(options.dataFlow === undefined ? {} : { dataFlow: options.dataFlow }),
  };
  return { paid, journal, verdicts, loop };
}

const sinks: DataFlowOptions = { trustedOnly: { send_money: ['/iban', '/amount'] } };

describe('trusted-only arguments', () => {
  it('runs a payment whose values the human wrote, without asking more than before', async () => {
    const { paid, loop, journal } = setup(
      [
        callsTurn([call('c1', 'send_money', { iban: 'FR76 3000 6000 0112 3456 7890 189', amount: 1250 })]),
        textTurn('Paid.'),
      ],
      {
        dataFlow: sinks,
        messages: [{ role: 'user', content: 'Send 1250 to FR7630006000011234567890189, the landlord.' }],
      },
    );
    const first = await runLoop(loop);
    // Irreversible: still confirmed by the human, as always; nothing untrusted was read, so nothing to vouch for.
    expect(first.status).toBe('paused');
    const [pending] = first.paused?.pending ?? [];
    expect(pending?.dataFlow?.refusedBy).toBeUndefined();
    expect(pending?.dataFlow?.checked).toEqual([
      { path: '/iban', value: 'FR76 3000 6000 0112 3456 7890 189', trustedIn: { kind: 'user', message: 0 } },
      { path: '/amount', value: 1250, trustedIn: { kind: 'user', message: 0 } },
    ]);
    const done = await resumeLoop(first.paused as PausedRun, [{ callId: 'c1', approved: true }], loop);
    expect(done.status).toBe('completed');
    expect(paid).toHaveLength(1);
    const entry = journal.entries.find((item) => item.verdict === 'executed');
    // The journal says where each value came from, without the values.
    expect(entry?.dataFlow?.checked).toEqual([
      { path: '/iban', trustedIn: { kind: 'user', message: 0 } },
      { path: '/amount', trustedIn: { kind: 'user', message: 0 } },
    ]);
  });

  it('refuses a value that only an untrusted result holds, with a reason the model can act on (refuse mode)', async () => {
    const { paid, verdicts, loop } = setup(
      [
        callsTurn([call('c1', 'read_mail', {})]),
        callsTurn([call('c2', 'send_money', payFromMail)]),
        textTurn('Could not pay.'),
      ],
      { dataFlow: sinks, confirmation: 'refuse' },
    );
    const result = await runLoop(loop);
    expect(result.status).toBe('completed');
    expect(paid).toEqual([]);
    const refused = verdicts.find((verdict) => verdict.kind === 'refused');
    expect(refused).toMatchObject({ kind: 'refused', reason: 'untrusted_value' });
    if (refused?.kind !== 'refused') throw new Error('expected a refusal');
    expect(refused.dataFlow?.vouchFor).toEqual(['/iban', '/amount']);
    expect(refused.message).toContain('/iban, /amount');
    expect(refused.message).not.toContain('FR76');
  });

  it('holds it for vouching in pause mode: a click is not enough, the value the human types is', async () => {
    const turns = [
      callsTurn([call('c1', 'read_mail', {})]),
      callsTurn([call('c2', 'send_money', payFromMail)]),
      textTurn('Done.'),
    ];
    const clicked = setup(turns, { dataFlow: sinks });
    const paused = await runLoop(clicked.loop);
    expect(paused.status).toBe('paused');
    const [pending] = paused.paused?.pending ?? [];
    expect(pending?.dataFlow).toMatchObject({ refusedBy: 'trusted-only', vouchFor: ['/iban', '/amount'] });
    // The gated call's informed request is there too: the human sees the untrusted sources and the flags.
    expect(pending?.request?.untrustedSources.map((source) => source.toolName)).toEqual(['read_mail']);
    const stored = JSON.parse(JSON.stringify(paused.paused)) as PausedRun;
    const approvedOnly = await resumeLoop(stored, [{ callId: 'c2', approved: true }], clicked.loop);
    expect(approvedOnly.status).toBe('completed');
    expect(clicked.paid).toEqual([]);
    expect(clicked.verdicts.at(-1)).toMatchObject({ kind: 'refused', reason: 'untrusted_value' });

    const vouching = setup(turns, { dataFlow: sinks });
    const again = await runLoop(vouching.loop);
    const done = await resumeLoop(
      JSON.parse(JSON.stringify(again.paused)) as PausedRun,
      [
        {
          callId: 'c2',
          approved: true,
          vouched: [
            { path: '/iban', value: 'FR76 3000 6000 0112 3456 7890 189' },
            { path: '/amount', value: 1250 },
          ],
        },
      ],
      vouching.loop,
    );
    expect(done.status).toBe('completed');
    expect(vouching.paid).toEqual([payFromMail]);
    const executed = vouching.journal.entries.find(
      (entry) => entry.verdict === 'executed' && entry.toolName === 'send_money',
    );
    expect(executed?.dataFlow?.checked?.[0]?.trustedIn).toEqual({
      kind: 'vouched',
      by: 'sam',
      callId: 'c2',
      path: '/iban',
    });
    // The vouched values travel with the call's result: a run going on from this conversation still trusts them.
    const reply = done.messages.find((message) => message.role === 'tool' && message.content[0]?.callId === 'c2');
    expect(reply?.role === 'tool' ? reply.content[0]?.dataFlow?.vouched : undefined).toHaveLength(2);
  });

  it('does not let a vouched value stand for another one: the call with the attacker value is refused', async () => {
    const attack = { iban: 'GB33BUKB20201555555555', amount: 1250 };
    const { paid, loop, verdicts } = setup(
      [callsTurn([call('c1', 'read_mail', {})]), callsTurn([call('c2', 'send_money', attack)]), textTurn('ok')],
      { dataFlow: sinks },
    );
    const paused = await runLoop(loop);
    await resumeLoop(
      paused.paused as PausedRun,
      [
        {
          callId: 'c2',
          approved: true,
          vouched: [
            { path: '/iban', value: 'FR7630006000011234567890189' },
            { path: '/amount', value: 1250 },
          ],
        },
      ],
      loop,
    );
    expect(paid).toEqual([]);
    expect(verdicts.at(-1)).toMatchObject({
      kind: 'refused',
      reason: 'untrusted_value',
      dataFlow: { vouchFor: ['/iban'] },
    });
  });

  it('accepts a value found in a trusted tool and in untrusted mail alike: the limit of matching', async () => {
    const garage = { iban: 'DE89370400440532013000', amount: 1250 };
    const { paid, loop } = setup(
      [
        callsTurn([call('c1', 'get_payees', {}), call('c2', 'read_mail', {})]),
        callsTurn([call('c3', 'send_money', garage)]),
        textTurn('ok'),
      ],
      { dataFlow: sinks, confirmation: 'pause', messages: [{ role: 'user', content: 'Pay 1250 to the garage.' }] },
    );
    const paused = await runLoop(loop);
    const [pending] = paused.paused?.pending ?? [];
    expect(pending?.dataFlow?.refusedBy).toBeUndefined();
    expect(pending?.dataFlow?.checked?.[0]?.trustedIn).toEqual({ kind: 'tool', toolName: 'get_payees', callId: 'c1' });
    await resumeLoop(paused.paused as PausedRun, [{ callId: 'c3', approved: true }], loop);
    expect(paid).toEqual([garage]);
  });

  it('counts a trusted output for the calls of later turns only, whichever call of a turn settles first', async () => {
    const garage = { iban: 'DE89370400440532013000', amount: 1250 };
    const { paid, loop, verdicts } = setup(
      [callsTurn([call('c1', 'get_payees', {}), call('c2', 'send_money', garage)]), textTurn('x')],
      { dataFlow: sinks, confirmation: 'refuse', messages: [{ role: 'user', content: 'Pay 1250 to the garage.' }] },
    );
    // One after the other: the payees are in before the payment is checked, and still do not count for it.
    await runLoop({ ...loop, concurrency: 1 });
    expect(paid).toEqual([]);
    expect(verdicts.at(-1)).toMatchObject({ reason: 'untrusted_value', dataFlow: { vouchFor: ['/iban'] } });
  });

  it('checks each element of a list and every field of a nested object', async () => {
    const { catalogue } = world();
    const sent: JsonValue[] = [];
    const bulk = defineTool({
      name: 'bulk_pay',
      description: 'Pays several payees.',
      inputSchema: open,
      right: everySession,
      trustedOnly: ['/payments/*/iban'],
      run: (input) => {
        sent.push(input as JsonValue);
        return 'ok';
      },
    });
    const tools = [...catalogue.names.map((name) => catalogue.get(name)?.definition), bulk].filter(
      (tool) => tool !== undefined,
    );
    const verdicts: Verdict[] = [];
    const result = await runLoop({
      model: scripted([
        callsTurn([
          call('c1', 'bulk_pay', {
            payments: [
              { iban: 'FR7630006000011234567890189', amount: 10 },
              { iban: 'GB33BUKB20201555555555', amount: 10 },
            ],
          }),
        ]),
        textTurn('ok'),
      ]),
      catalogue: createCatalogue(tools),
      session: createSession({ id: 's', humanId: 'sam' }),
      messages: [{ role: 'user', content: 'Pay 10 to FR7630006000011234567890189.' }],
      hooks: { onCall: (event) => void verdicts.push(event.verdict) },
    });
    expect(result.status).toBe('completed');
    expect(sent).toEqual([]);
    expect(verdicts[0]).toMatchObject({
      kind: 'refused',
      reason: 'untrusted_value',
      dataFlow: { vouchFor: ['/payments/1/iban'] },
    });
  });

  it('takes trusted-only paths from the tool itself, and a policy that decides per call', async () => {
    const declared = setup(
      [callsTurn([call('c1', 'read_mail', {})]), callsTurn([call('c2', 'send_money', payFromMail)]), textTurn('x')],
      {
        declared: true,
        confirmation: 'refuse',
      },
    );
    await runLoop(declared.loop);
    expect(declared.paid).toEqual([]);
    expect(declared.verdicts.at(-1)).toMatchObject({ reason: 'untrusted_value' });

    // Small amounts may come from the mail; the IBAN never.
    const policy: DataFlowOptions = {
      trustedOnly: {
        send_money: (query) => ((query.input as { amount: number }).amount <= 2000 ? ['/iban'] : ['/iban', '/amount']),
      },
      vouched: ['FR7630006000011234567890189'],
    };
    const byPolicy = setup(
      [callsTurn([call('c1', 'read_mail', {})]), callsTurn([call('c2', 'send_money', payFromMail)]), textTurn('x')],
      {
        dataFlow: policy,
      },
    );
    const paused = await runLoop(byPolicy.loop);
    expect(paused.paused?.pending[0]?.dataFlow?.checked).toEqual([
      { path: '/iban', value: payFromMail.iban, trustedIn: { kind: 'application' } },
    ]);
    const throwing = setup([callsTurn([call('c1', 'send_money', payFromMail)]), textTurn('x')], {
      dataFlow: {
        trustedOnly: {
          send_money: () => {
            throw new Error('bug');
          },
        },
      },
    });
    const refused = await runLoop(throwing.loop);
    expect(refused.status).toBe('completed');
    expect(throwing.verdicts[0]).toMatchObject({
      kind: 'refused',
      reason: 'untrusted_value',
      dataFlow: { vouchFor: [] },
    });
  });

  it('refuses settings it could only misread, and a vouched value that is not one', async () => {
    const { loop } = setup([textTurn('x')]);
    await expect(runLoop({ ...loop, dataFlow: { trustedOnly: { send_mony: ['/iban'] } } })).rejects.toThrow(
      InvalidLoopOptionsError,
    );
    await expect(runLoop({ ...loop, dataFlow: { trustedOnly: { send_money: ['iban'] } } })).rejects.toThrow(
      /JSON Pointers/,
    );
    await expect(runLoop({ ...loop, provenance: false, dataFlow: sinks })).rejects.toThrow(/provenance/);
    expect(() =>
      createCatalogue([
        defineTool({
          name: 't',
          description: 'T.',
          inputSchema: open,
          right: everySession,
          trustedOnly: ['to'],
          run: () => 'x',
        }),
      ]),
    ).toThrow(/trustedOnly/);
    const paused = setup(
      [callsTurn([call('c1', 'read_mail', {})]), callsTurn([call('c2', 'send_money', payFromMail)])],
      { dataFlow: sinks },
    );
    const result = await runLoop(paused.loop);
    await expect(
      resumeLoop(
        result.paused as PausedRun,
        [{ callId: 'c2', approved: true, vouched: [{ path: '/iban', value: { a: 1 } as never }] }],
        paused.loop,
      ),
    ).rejects.toThrow(InvalidResumeError);
    await expect(
      resumeLoop(
        result.paused as PausedRun,
        [{ callId: 'c2', approved: false, vouched: [{ path: '/iban', value: 'x' }] }],
        paused.loop,
      ),
    ).rejects.toThrow(/declined/);
  });
});
