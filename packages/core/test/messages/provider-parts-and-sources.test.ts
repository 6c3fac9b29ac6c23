import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  InMemoryJournal,
  type Journal,
  JournalWriteError,
  type ModelTurn,
  runLoop,
  streamLoop,
  turnStreamEvents,
} from '../../src/index.js';
import { chercherDossier } from '../fixtures.js';
import { call, scripted, textTurn } from '../support.js';

const session = createSession({ id: 's', humanId: 'alice', rights: ['dossiers:lire'] });

const source = {
  type: 'source',
  sourceType: 'url',
  url: 'https://example.org/a',
  title: 'A',
  textRange: { start: 0, end: 5 },
} as const;

const turn: ModelTurn = {
  content: [
    { type: 'text', text: 'Hello world', sources: [source] },
    { type: 'provider', provider: 'test', kind: 'compaction', data: { type: 'compaction', encrypted_content: 'x' } },
  ],
  stopReason: { unified: 'end_turn', raw: 'end_turn' },
  usage: textTurn('').usage,
};

describe('sources and provider parts on the stream', () => {
  it('a replayed turn announces each source after its text, and each provider part', () => {
    expect(turnStreamEvents(turn).map((event) => event.type)).toEqual([
      'text-delta',
      'source',
      'provider-part',
      'turn-end',
    ]);
  });

  it('streamLoop forwards them tagged with the run and turn, and keeps them in the messages', async () => {
    const events = [];
    const stream = streamLoop({
      model: scripted([turn]),
      catalogue: createCatalogue([chercherDossier]),
      session,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(events.filter((event) => event.type === 'source')).toEqual([
      expect.objectContaining({ type: 'source', source, turn: 1 }),
    ]);
    expect(events.filter((event) => event.type === 'provider-part')).toHaveLength(1);
    // Kept as sent, and marked as untrusted content where it stood (an unknown item may carry outside text).
    expect(result.messages.at(-1)).toEqual({
      role: 'assistant',
      content: turn.content,
      untrustedContent: [expect.objectContaining({ at: 1, kind: 'compaction' })],
    });
  });
});

describe('journal notes for provider parts', () => {
  it('the loop writes one note per provider part of a turn, with its place and digest', async () => {
    const journal = new InMemoryJournal();
    const withCall: ModelTurn = {
      ...turn,
      content: [...turn.content, call('c1', 'chercher_dossier', { numero: 'A-1234' })],
      stopReason: { unified: 'tool_calls', raw: 'tool_use' },
    };
    await runLoop({
      model: scripted([withCall, textTurn('done')]),
      catalogue: createCatalogue([chercherDossier]),
      session,
      messages: [{ role: 'user', content: 'hi' }],
      journal,
      runId: 'run-1',
    });
    expect(journal.notes).toEqual([
      {
        kind: 'provider_part',
        at: expect.any(String),
        runId: 'run-1',
        sessionId: 's',
        humanId: 'alice',
        turn: 1,
        provider: 'test',
        partKind: 'compaction',
        index: 1,
        dataDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(journal.entries.map((entry) => entry.verdict)).toEqual(['executed']);
  });

  it('a journal whose note fails stops the run, as a failed entry does', async () => {
    const journal: Journal = {
      append: () => undefined,
      note: async () => {
        throw new Error('disk full');
      },
    };
    await expect(
      runLoop({
        model: scripted([turn]),
        catalogue: createCatalogue([chercherDossier]),
        session,
        messages: [{ role: 'user', content: 'hi' }],
        journal,
      }),
    ).rejects.toBeInstanceOf(JournalWriteError);
  });
});

describe('a turn the provider paused', () => {
  it('is sent back as it is and the loop goes on, rather than ending the run as completed', async () => {
    const paused: ModelTurn = {
      content: [{ type: 'text', text: 'Searching…' }],
      stopReason: { unified: 'pause', raw: 'pause_turn' },
      usage: textTurn('').usage,
      providerMetadata: { test: { serverBlocks: [] } },
    };
    const model = scripted([paused, textTurn('Found it.')]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([chercherDossier]),
      session,
      messages: [{ role: 'user', content: 'find' }],
    });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Found it.');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'assistant',
      content: paused.content,
      providerMetadata: paused.providerMetadata,
    });
  });

  it('counts as a turn: a provider that keeps pausing stops at maxTurns', async () => {
    const paused: ModelTurn = {
      content: [],
      stopReason: { unified: 'pause', raw: 'pause_turn' },
      usage: textTurn('').usage,
    };
    const result = await runLoop({
      model: scripted([paused, paused, paused]),
      catalogue: createCatalogue([chercherDossier]),
      session,
      messages: [{ role: 'user', content: 'find' }],
      maxTurns: 3,
    });
    expect(result.status).toBe('max_turns');
    expect(result.turns).toHaveLength(3);
  });
});
