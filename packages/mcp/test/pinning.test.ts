import { fileURLToPath } from 'node:url';
import {
  argumentDigest,
  confirmationFor,
  createSession,
  executeCall,
  InMemoryConfirmations,
  InMemoryJournal,
  resumeLoop,
  runLoop,
  toolResultText,
} from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpConnection, type McpEvent } from '../src/index.js';

const changingServer = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));

async function connect(env: Record<string, string>, events: McpEvent[]): Promise<McpConnection> {
  return connectMcpServer({
    name: 'reports',
    server: {
      command: process.execPath,
      args: [changingServer],
      env: { ...env, PATH: process.env.PATH ?? '' },
      stderr: 'ignore',
    },
    onEvent: (event) => events.push(event),
  });
}

async function sentCount(connection: McpConnection): Promise<string> {
  const result = await connection.client.callTool({ name: 'sent_count', arguments: {} });
  return (result.content as { text: string }[])[0]?.text ?? '';
}

const input = { week: 48 };

describe('pinning tool definitions (synthetic changing server)', () => {
  let connection: McpConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  it('a description changed between two tools/list calls voids the approval: reported, not run until accepted', async () => {
    const events: McpEvent[] = [];
    // The server changes send_report's description on its second tools/list: the check before the call.
    connection = await connect({ CHANGE_ON_LIST: '2' }, events);
    const pinned = connection.pins().send_report;
    const session = createSession({
      id: 's1',
      humanId: 'alice',
      rights: ['mcp:reports'],
      confirmations: connection.guardConfirmations(new InMemoryConfirmations()),
    });
    const journal = new InMemoryJournal();
    const model = createScriptedModel([
      toolCallsTurn([{ id: 'send', name: 'send_report', input }]),
      textTurn('Could not send it.'),
      toolCallsTurn([{ id: 'send-2', name: 'send_report', input }]),
    ]);
    const catalogue = connection.catalogue();
    const options = { model, catalogue, session, journal, confirmation: 'pause' as const };
    const paused = await runLoop({ ...options, messages: [{ role: 'user', content: 'Send the report.' }] });
    if (paused.paused === undefined) throw new Error('expected a pause');

    const resumed = await resumeLoop(
      paused.paused,
      [{ callId: 'send', approved: true, inputDigest: argumentDigest(input) }],
      options,
    );
    expect(resumed.status).toBe('completed');
    const reply = resumed.messages.filter((message) => message.role === 'tool').at(-1);
    if (reply?.role !== 'tool') throw new Error('expected a tool reply');
    expect(reply.content[0]?.isError).toBe(true);
    expect(toolResultText(reply.content[0]?.content ?? '')).toMatch(/changed after it was approved.*not run/);
    expect(await sentCount(connection)).toBe('0');

    const changed = events.find((event) => event.type === 'definition-changed');
    expect(changed).toMatchObject({
      type: 'definition-changed',
      server: 'reports',
      toolName: 'send_report',
      pinnedFingerprint: pinned,
    });
    if (changed?.type !== 'definition-changed') throw new Error('expected a change event');
    expect(changed.current?.description).toMatch(/id_rsa/);
    expect(changed.pinned.description).toBe('Send the weekly report to the team mailing list.');
    expect(connection.changes().map((change) => change.toolName)).toEqual(['send_report']);

    // The application reviews and accepts the new definition: the tool may run again, but only with a NEW approval.
    connection.accept('send_report');
    expect(connection.changes()).toEqual([]);
    // The catalogue built before the acceptance still carries the old policy: it refuses to run the new tool.
    const stale = await executeCall(
      { type: 'tool_call', id: 'stale', name: 'send_report', input },
      {
        catalogue,
        session: createSession({
          id: 's1b',
          humanId: 'alice',
          rights: ['mcp:reports'],
          confirmations: [confirmationFor('send_report', input)],
        }),
      },
    );
    expect(toolResultText(stale.result.content)).toMatch(/out of date.*not run/);
    expect(connection.pins().send_report).toBe(changed.currentFingerprint);
    const again = await runLoop({
      ...options,
      catalogue: connection.catalogue(),
      messages: [...resumed.messages, { role: 'user', content: 'Try again.' }],
    });
    expect(again.status).toBe('paused');
    expect(await sentCount(connection)).toBe('0');
    expect(connection.catalogue().get('send_report')?.declaration.description).toMatch(/id_rsa/);
  });

  it('notifications/tools/list_changed re-lists at once; outstanding approvals of the changed tool are voided', async () => {
    const events: McpEvent[] = [];
    connection = await connect({}, events);
    const inner = new InMemoryConfirmations();
    const store = connection.guardConfirmations(inner);
    // The human approved this exact report in advance, for any of her runs.
    const approval = confirmationFor('send_report', input, { humanId: 'alice', anyRun: true });
    const asked = confirmationFor('send_report', input, { humanId: 'alice', runId: 'run-1' });
    await store.grant(approval);

    const changedEvent = new Promise<McpEvent>((resolve) => {
      const check = setInterval(() => {
        const found = events.find((event) => event.type === 'definition-changed');
        if (found !== undefined) {
          clearInterval(check);
          resolve(found);
        }
      }, 10);
    });
    await connection.client.callTool({ name: 'rotate', arguments: {} });
    expect(await changedEvent).toMatchObject({ toolName: 'send_report', voidedApprovals: 1 });

    // The approval is gone, for this tool and these arguments, even once the definition is accepted, and
    // spent in the store behind the guard too.
    expect(await store.consume(asked)).toBe(false);
    expect(inner.outstanding()).toEqual([]);
    connection.accept('send_report');
    expect(await store.consume(asked)).toBe(false);
    // A new approval, given under the accepted definition, holds once, and only for its human.
    await store.grant(approval);
    expect(await store.consume({ ...asked, humanId: 'bob' })).toBe(false);
    expect(await store.consume(asked)).toBe(true);
    expect(await store.consume(asked)).toBe(false);
  });

  it('pins given at connect time (e.g. from a catalogue file) report a server that changed since', async () => {
    const events: McpEvent[] = [];
    connection = await connect({}, events);
    const pins = { ...connection.pins(), send_report: 'f'.repeat(64) };
    await connection.close();
    connection = await connectMcpServer({
      name: 'reports',
      server: {
        command: process.execPath,
        args: [changingServer],
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      },
      pins,
      onEvent: (event) => events.push(event),
    });
    expect(connection.changes().map((change) => change.toolName)).toEqual(['send_report']);
    const session = createSession({
      id: 's3',
      humanId: 'alice',
      rights: ['mcp:reports'],
      confirmations: [confirmationFor('send_report', input)],
    });
    const model = createScriptedModel([toolCallsTurn([{ name: 'send_report', input }]), textTurn('ok')]);
    const result = await runLoop({
      model,
      catalogue: connection.catalogue(),
      session,
      messages: [{ role: 'user', content: 'send' }],
    });
    const reply = result.messages.find((message) => message.role === 'tool');
    expect(reply?.role === 'tool' && reply.content[0]?.isError).toBe(true);
    expect(await sentCount(connection)).toBe('0');
  });

  it('a read-only tool re-annotated as destructive without list_changed does not run unconfirmed; the call is journaled refused', async () => {
    const events: McpEvent[] = [];
    // archive_reports is read-only on the first listing (the import) and destructive from the second on.
    connection = await connect({ REANNOTATE_ON_LIST: '2' }, events);
    expect(connection.tools().find((tool) => tool.name === 'archive_reports')?.irreversible).toBe(false);
    const journal = new InMemoryJournal();
    const model = createScriptedModel([
      toolCallsTurn([{ id: 'archive', name: 'archive_reports', input }]),
      textTurn('Could not archive them.'),
    ]);
    const result = await runLoop({
      model,
      catalogue: connection.catalogue(),
      session: createSession({ id: 's4', humanId: 'alice', rights: ['mcp:reports'] }),
      journal,
      confirmation: 'pause',
      messages: [{ role: 'user', content: 'Archive week 48.' }],
    });
    expect(result.status).toBe('completed');
    const counted = await connection.client.callTool({ name: 'archived_count', arguments: {} });
    expect((counted.content as { text: string }[])[0]?.text).toBe('0');
    expect(events.find((event) => event.type === 'definition-changed')).toMatchObject({
      toolName: 'archive_reports',
      current: { annotations: { destructiveHint: true } },
    });
    // Nothing was sent to the server: the journal says refused, by the tool, not executed.
    expect(journal.entries.map((entry) => [entry.toolName, entry.verdict, entry.reason ?? null])).toEqual([
      ['archive_reports', 'refused', 'tool_refused'],
    ]);
    const reply = result.messages.find((message) => message.role === 'tool');
    if (reply?.role !== 'tool') throw new Error('expected a tool reply');
    expect(toolResultText(reply.content[0]?.content ?? '')).toMatch(/changed after it was approved.*not run/);
  });

  it('verifyBeforeCall: "irreversible" leaves reversible calls unchecked (the documented trade-off)', async () => {
    const events: McpEvent[] = [];
    connection = await connectMcpServer({
      name: 'reports',
      server: {
        command: process.execPath,
        args: [changingServer],
        env: { REANNOTATE_ON_LIST: '2', PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      },
      verifyBeforeCall: 'irreversible',
      onEvent: (event) => events.push(event),
    });
    const outcome = await executeCall(
      { type: 'tool_call', id: 'a', name: 'archive_reports', input },
      {
        catalogue: connection.catalogue(),
        session: createSession({ id: 's5', humanId: 'alice', rights: ['mcp:reports'] }),
      },
    );
    expect(outcome.verdict).toEqual({ kind: 'executed', isError: false });
    expect(events.filter((event) => event.type === 'definition-changed')).toEqual([]);
  });

  it('guarded approvals keep their informedOf: a void spends the informed grant, which is never honoured again', async () => {
    const events: McpEvent[] = [];
    connection = await connect({}, events);
    const inner = new InMemoryConfirmations();
    const alice = { humanId: 'alice', anyRun: true } as const;
    const store = connection.guardConfirmations(inner);
    const informed = { ...confirmationFor('send_report', input, alice), informedOf: 'a'.repeat(64) };
    await store.grant(informed);
    await connection.client.callTool({ name: 'rotate', arguments: {} });
    await connection.refresh();
    expect(events.find((event) => event.type === 'definition-changed')).toMatchObject({ voidedApprovals: 1 });
    // Voided in the inner store too: no other reader of it finds the informed approval.
    expect(inner.outstanding()).toEqual([]);
    connection.accept('send_report');
    // A new approval of the same call, given without seeing those sources, does not revive the voided one.
    await store.grant(confirmationFor('send_report', input, alice));
    expect(await store.consume(informed)).toBe(false);
    expect(await store.consume(confirmationFor('send_report', input, alice))).toBe(true);
    // An informed approval given under the accepted definition holds once, for those sources only.
    await store.grant(informed);
    expect(await store.consume({ ...informed, informedOf: 'b'.repeat(64) })).toBe(false);
    expect(await store.consume(informed)).toBe(true);
    expect(await store.consume(informed)).toBe(false);
  });
});
