import { fileURLToPath } from 'node:url';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  type Catalogue,
  confirmationFor,
  createSession,
  executeCall,
  InMemoryConfirmations,
  InMemoryJournal,
  type Session,
} from '@toolcircuit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  type HttpCatalogueServer,
  type McpConnection,
  type McpEvent,
  serveCatalogue,
  serveCatalogueHttp,
} from '../src/index.js';
import { authenticateBearer, casesCatalogue, people } from './cases-catalogue.js';

// The era matrix: servers of both eras imported, clients of both eras served. In every cell the four checks
// (unknown tool, bad input, missing right, unconfirmed irreversible call), pinning and confirmation hold.

const changingServer = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));
const servedCases = fileURLToPath(new URL('./fixtures/served-cases.mjs', import.meta.url));
const MODERN = '2026-07-28';

function textOf(result: { content?: unknown }): string {
  return JSON.stringify(result.content ?? []);
}

// ---------------------------------------------------------------------------------------------------------
// Served: a catalogue with one reversible and one irreversible tool, for the people of a token table.
const closed: string[] = [];
const servedCatalogue = casesCatalogue(closed);

/** The answer a human gives to the served confirmation: yes, bound to the digests the question named. */
function informedYes(request: ElicitRequest['params']): ElicitResult {
  const informed = (request._meta as Record<string, { inputDigest?: string; taintDigest?: string }> | undefined)?.[
    'io.toolcircuit/confirmationRequest'
  ];
  return {
    action: 'accept',
    content: {
      confirm: true,
      ...(informed?.inputDigest === undefined ? {} : { inputDigest: informed.inputDigest }),
      ...(informed?.taintDigest === undefined ? {} : { taintDigest: informed.taintDigest }),
    },
  };
}

describe('era matrix', () => {
  const journal = new InMemoryJournal();
  let http: HttpCatalogueServer;

  beforeAll(async () => {
    const served = serveCatalogue(servedCatalogue, {
      journal,
      sessionFor: (identity): Session | undefined => {
        const person = identity.authInfo === undefined ? undefined : people[identity.authInfo.token];
        if (person === undefined) return undefined;
        return createSession({ id: `mcp-${person.humanId}`, humanId: person.humanId, rights: person.rights });
      },
    });
    http = await serveCatalogueHttp(served, {
      authenticate: authenticateBearer,
    });
  });
  afterAll(async () => {
    await http?.close();
  });

  // -------------------------------------------------------------------------------------------------------
  // Serve cells: an SDK client of each era against serveCatalogueHttp.
  const clientEras = [
    { era: MODERN, negotiation: { mode: { pin: MODERN } } as const },
    { era: '2025-11-25', negotiation: { mode: 'legacy' } as const },
  ];

  for (const { era, negotiation } of clientEras) {
    describe(`a ${era} client served`, () => {
      async function connect(
        token: string,
        answer?: (request: ElicitRequest['params']) => ElicitResult,
        fetchOverride?: typeof fetch,
      ): Promise<Client> {
        const client = new Client(
          { name: 'matrix-client', version: '1.0.0' },
          {
            versionNegotiation: negotiation,
            capabilities: answer === undefined ? {} : { elicitation: { form: {} } },
          },
        );
        if (answer !== undefined) {
          client.setRequestHandler('elicitation/create', async (request) => answer(request.params));
        }
        await client.connect(
          new StreamableHTTPClientTransport(http.url, {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
            ...(fetchOverride === undefined ? {} : { fetch: fetchOverride }),
          }),
        );
        return client;
      }

      it('negotiates its own era, and the journal says which revision carried each call', async () => {
        const client = await connect('token-alice');
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
        const ok = await client.callTool({ name: 'lookup_case', arguments: { number: 'A-1234' } });
        expect(ok.isError).toBeFalsy();
        expect(journal.entries.at(-1)).toMatchObject({
          toolName: 'lookup_case',
          verdict: 'executed',
          protocol: { name: 'mcp', revision: era, role: 'server' },
        });
        await client.close();
      });

      it('the four checks: unknown tool, bad input, missing right, unconfirmed irreversible call', async () => {
        const alice = await connect('token-alice', () => ({ action: 'decline' }));
        const bob = await connect('token-bob');
        const unknown = await alice.callTool({ name: 'delete_everything', arguments: {} });
        const invalid = await alice.callTool({ name: 'lookup_case', arguments: { number: '1234' } });
        const denied = await bob.callTool({ name: 'lookup_case', arguments: { number: 'A-1234' } });
        const declined = await alice.callTool({ name: 'close_case', arguments: { number: `D-${era}` } });
        for (const result of [unknown, invalid, denied, declined]) expect(result.isError).toBe(true);
        expect(closed).not.toContain(`D-${era}`);
        const reasons = journal.entries
          .filter((entry) => entry.protocol?.revision === era)
          .slice(era === MODERN ? -5 : -4)
          .map((entry) => [entry.humanId, entry.toolName, entry.verdict, entry.reason ?? null]);
        expect(reasons).toEqual([
          ['alice', 'delete_everything', 'refused', 'unknown_tool'],
          ['alice', 'lookup_case', 'refused', 'invalid_input'],
          ['bob', 'lookup_case', 'refused', 'missing_right'],
          // On 2026-07-28 the question is a round of its own: journaled as awaiting the human, then refused.
          ...(era === MODERN ? [['alice', 'close_case', 'awaiting_confirmation', null]] : []),
          ['alice', 'close_case', 'refused', 'confirmation_required'],
        ]);
        await Promise.all([alice.close(), bob.close()]);
      });

      it('a client that cannot elicit is told how to confirm instead; nothing runs', async () => {
        const client = await connect('token-alice');
        const number = `N-${era}`;
        const result = await client.callTool({ name: 'close_case', arguments: { number } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/does not support elicitation/);
        expect(closed).not.toContain(number);
        await client.close();
      });

      it("an irreversible call runs once on the human's informed yes", async () => {
        const asked: ElicitRequest['params'][] = [];
        const client = await connect('token-alice', (request) => {
          asked.push(request);
          return informedYes(request);
        });
        const number = `Y-${era}`;
        const result = await client.callTool({ name: 'close_case', arguments: { number } });
        expect(result.isError).toBeFalsy();
        expect(closed.filter((closedNumber) => closedNumber === number)).toHaveLength(1);
        expect(asked).toHaveLength(1);
        expect(asked[0]?.message).toContain(`"number": "${number}"`);
        expect(journal.entries.at(-1)).toMatchObject({ toolName: 'close_case', verdict: 'executed', humanId: 'alice' });
        await client.close();
      });
    });
  }

  // A catalogue served over stdio by a child process (the built package), to a client of each era.
  for (const { era, negotiation } of clientEras) {
    it(`a ${era} client served over stdio: the four checks, and confirmation runs the call once`, async () => {
      const client = new Client(
        { name: 'matrix-client', version: '1.0.0' },
        { versionNegotiation: negotiation, capabilities: { elicitation: { form: {} } } },
      );
      let answer: (request: ElicitRequest['params']) => ElicitResult = () => ({ action: 'decline' });
      client.setRequestHandler('elicitation/create', async (request) => answer(request.params));
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [servedCases], stderr: 'ignore' }),
      );
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
        const results = [
          await client.callTool({ name: 'delete_everything', arguments: {} }),
          await client.callTool({ name: 'lookup_case', arguments: { number: '1234' } }),
          await client.callTool({ name: 'purge_archive', arguments: {} }),
          await client.callTool({ name: 'close_case', arguments: { number: 'A-0001' } }),
        ];
        expect(results.map((result) => result.isError)).toEqual([true, true, true, true]);
        expect(results.map(textOf).join('\n')).toMatch(/right/);
        const count = async () => textOf(await client.callTool({ name: 'closed_count', arguments: {} }));
        expect(await count()).toContain('0');
        answer = informedYes;
        const confirmed = await client.callTool({ name: 'close_case', arguments: { number: 'A-0001' } });
        expect(confirmed.isError).toBeFalsy();
        expect(await count()).toContain('1');
      } finally {
        await client.close();
      }
    });
  }

  describe('2026-07-28 confirmation is bound to the digests and spent once', () => {
    /** A client whose wire is watched: the retry that carries the answer is kept, and may be altered. */
    async function watchedClient(alter?: (body: Record<string, unknown>, headers: Headers) => void) {
      const retries: { url: string; init: RequestInit }[] = [];
      const watched: typeof fetch = async (url, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
        const params = body?.params as Record<string, unknown> | undefined;
        if (body !== undefined && params?.requestState !== undefined) {
          const headers = new Headers(init?.headers);
          alter?.(body, headers);
          const altered = { ...init, headers, body: JSON.stringify(body) };
          retries.push({ url: String(url), init: altered });
          return fetch(url, altered);
        }
        return fetch(url, init);
      };
      const client = new Client(
        { name: 'matrix-client', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } },
      );
      const asked: ElicitRequest['params'][] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params);
        return informedYes(request.params);
      });
      await client.connect(
        new StreamableHTTPClientTransport(http.url, {
          requestInit: { headers: { authorization: 'Bearer token-alice' } },
          fetch: watched,
        }),
      );
      return { client, retries, asked };
    }

    it('asks with the informed request: the exact arguments and their digest', async () => {
      const { client, asked } = await watchedClient();
      await client.callTool({ name: 'close_case', arguments: { number: 'I-0001' } });
      const informed = (asked[0]?._meta as Record<string, unknown> | undefined)?.['io.toolcircuit/confirmationRequest'];
      expect(informed).toEqual({
        toolName: 'close_case',
        input: { number: 'I-0001' },
        inputDigest: confirmationFor('close_case', { number: 'I-0001' }).inputDigest,
      });
      await client.close();
    });

    it('a replayed answer does not run the call twice', async () => {
      const { client, retries } = await watchedClient();
      await client.callTool({ name: 'close_case', arguments: { number: 'R-0001' } });
      expect(closed.filter((number) => number === 'R-0001')).toHaveLength(1);
      const retry = retries[0];
      if (retry === undefined) throw new Error('the client sent no retry');
      const replayed = await fetch(retry.url, retry.init);
      expect(await replayed.text()).toMatch(/already used/);
      expect(closed.filter((number) => number === 'R-0001')).toHaveLength(1);
      await client.close();
    });

    it("another caller cannot use a human's answer: the retry is bound to the human who was asked", async () => {
      // Alice's answer, sent on by Carol (her own valid token, the same rights) before Alice's retry.
      const { client } = await watchedClient((body, headers) => {
        headers.set('authorization', 'Bearer token-carol');
        expect(body.params).toBeDefined();
      });
      const result = await client.callTool({ name: 'close_case', arguments: { number: 'C-0002' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/another human/);
      expect(closed).not.toContain('C-0002');
      await client.close();
    });

    it('an answer retried with other arguments is refused', async () => {
      const { client } = await watchedClient((body) => {
        const params = body.params as { arguments: { number: string } };
        params.arguments = { number: 'X-9999' };
      });
      const result = await client.callTool({ name: 'close_case', arguments: { number: 'S-0001' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/arguments changed/);
      expect(closed).not.toContain('S-0001');
      expect(closed).not.toContain('X-9999');
      await client.close();
    });

    it('an answer that names another digest is refused', async () => {
      const { client } = await watchedClient((body) => {
        const params = body.params as { inputResponses: Record<string, { content: Record<string, unknown> }> };
        const answer = params.inputResponses['toolcircuit.confirm'];
        if (answer !== undefined) answer.content.inputDigest = 'f'.repeat(64);
      });
      const result = await client.callTool({ name: 'close_case', arguments: { number: 'S-0002' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/other digests/);
      expect(closed).not.toContain('S-0002');
      await client.close();
    });

    it('an answer that comes after the confirmation time-out is refused before anything runs', async () => {
      const late = await serveCatalogueHttp(
        serveCatalogue(servedCatalogue, {
          confirmationTimeoutMs: 1000,
          sessionFor: () => createSession({ id: 'late', humanId: 'alice', rights: ['cases:close'] }),
        }),
      );
      const client = new Client(
        { name: 'matrix-client', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        // The human takes longer than the server allows (its signed question expires after 1 s).
        await new Promise((resolve) => setTimeout(resolve, 2500));
        return informedYes(request.params);
      });
      try {
        await client.connect(new StreamableHTTPClientTransport(late.url));
        await expect(client.callTool({ name: 'close_case', arguments: { number: 'L-0001' } })).rejects.toThrow(
          /expired requestState/,
        );
        expect(closed).not.toContain('L-0001');
      } finally {
        await client.close();
        await late.close();
      }
    });

    it('a client that names a taint digest is asked about it, and must answer for it', async () => {
      const { client, asked } = await watchedClient();
      const taintDigest = 'a'.repeat(64);
      const result = await client.callTool({
        name: 'close_case',
        arguments: { number: 'T-0001' },
        _meta: { 'io.toolcircuit/taintDigest': taintDigest },
      });
      expect(result.isError).toBeFalsy();
      expect(asked[0]?.message).toContain(taintDigest);
      expect(closed).toContain('T-0001');
      await client.close();
    });
  });

  // -------------------------------------------------------------------------------------------------------
  // Import cells: connectMcpServer against a server of each era.
  const serverEras = [
    { era: MODERN, label: 'a 2026-07-28 stdio server (the SDK serveStdio)', env: { ERA: 'both' } },
    { era: '2025-11-25', label: 'a 2025 stdio server (a hand-connected SDK server)', env: {} },
  ];

  for (const { era, label, env } of serverEras) {
    describe(`${label} imported`, () => {
      async function connect(extra: Record<string, string>, events: McpEvent[]): Promise<McpConnection> {
        return connectMcpServer({
          name: 'reports',
          server: {
            command: process.execPath,
            args: [changingServer],
            env: { ...env, ...extra, PATH: process.env.PATH ?? '' },
            stderr: 'ignore',
          },
          onEvent: (event) => events.push(event),
        });
      }

      it('negotiates the era automatically and says so in the event, the definitions and the journal', async () => {
        const events: McpEvent[] = [];
        const connection = await connect({}, events);
        try {
          expect(events[0]).toEqual({
            type: 'connected',
            server: 'reports',
            protocolVersion: era,
            era: era === MODERN ? 'modern' : 'legacy',
          });
          expect(connection.protocolVersion).toBe(era);
          const catalogue = connection.catalogue();
          expect(catalogue.get('sent_count')?.definition.protocol).toEqual({
            name: 'mcp',
            revision: era,
            role: 'client',
            peer: 'reports',
          });
          const importJournal = new InMemoryJournal();
          const session = createSession({ id: 's', humanId: 'alice', rights: ['mcp:reports'] });
          await executeCall(
            { type: 'tool_call', id: 'c1', name: 'sent_count', input: {} },
            { catalogue, session, journal: importJournal, runId: 'r', confirmation: 'refuse' },
          );
          expect(importJournal.entries[0]).toMatchObject({
            verdict: 'executed',
            protocol: { name: 'mcp', revision: era, role: 'client', peer: 'reports' },
          });
        } finally {
          await connection.close();
        }
      });

      it('the four checks, and an irreversible call runs once on the confirmation', async () => {
        const connection = await connect({}, []);
        try {
          const catalogue: Catalogue = connection.catalogue();
          const confirmations = connection.guardConfirmations(new InMemoryConfirmations());
          const alice = createSession({ id: 's', humanId: 'alice', rights: ['mcp:reports'], confirmations });
          const nobody = createSession({ id: 's2', humanId: 'bob', rights: [] });
          const context = (session: Session) => ({ catalogue, session, runId: 'r', confirmation: 'refuse' as const });
          const call = (name: string, input: unknown) => ({ type: 'tool_call' as const, id: name, name, input });
          const verdicts = [
            await executeCall(call('wipe_disk', {}), context(alice)),
            await executeCall(call('send_report', { week: 'forty' }), context(alice)),
            await executeCall(call('send_report', { week: 48 }), context(nobody)),
            await executeCall(call('send_report', { week: 48 }), context(alice)),
          ].map((outcome) => (outcome.verdict.kind === 'refused' ? outcome.verdict.reason : outcome.verdict.kind));
          expect(verdicts).toEqual(['unknown_tool', 'invalid_input', 'missing_right', 'confirmation_required']);
          expect(await sentCount(connection)).toBe('0');
          await confirmations.grant(confirmationFor('send_report', { week: 48 }, { humanId: 'alice', runId: 'r' }));
          const ran = await executeCall(call('send_report', { week: 48 }), context(alice));
          expect(ran.verdict.kind).toBe('executed');
          const again = await executeCall(call('send_report', { week: 48 }), context(alice));
          expect(again.verdict).toMatchObject({ kind: 'refused', reason: 'confirmation_required' });
          expect(await sentCount(connection)).toBe('1');
        } finally {
          await connection.close();
        }
      });

      it('pinning: tools/list_changed is followed (on 2026-07-28 over a subscriptions/listen stream)', async () => {
        const events: McpEvent[] = [];
        const connection = await connect({}, events);
        try {
          // `rotate` changes send_report and announces it; nothing else lists the tools again.
          await connection.client.callTool({ name: 'rotate', arguments: {} });
          await expect
            .poll(() => events.find((event) => event.type === 'definition-changed'))
            .toMatchObject({ toolName: 'send_report' });
        } finally {
          await connection.close();
        }
      });

      it('pinning: a definition changed silently is caught before the call, which is refused', async () => {
        const events: McpEvent[] = [];
        // The server changes send_report's description on its second tools/list: the check before the call.
        const connection = await connect({ CHANGE_ON_LIST: '2' }, events);
        try {
          const confirmations = connection.guardConfirmations(new InMemoryConfirmations());
          const alice = createSession({ id: 's', humanId: 'alice', rights: ['mcp:reports'], confirmations });
          await confirmations.grant(confirmationFor('send_report', { week: 48 }, { humanId: 'alice', runId: 'r' }));
          const outcome = await executeCall(
            { type: 'tool_call', id: 'c', name: 'send_report', input: { week: 48 } },
            { catalogue: connection.catalogue(), session: alice, runId: 'r', confirmation: 'refuse' },
          );
          expect(outcome.verdict).toMatchObject({ kind: 'refused', reason: 'tool_refused' });
          const changed = events.find((event) => event.type === 'definition-changed');
          expect(changed).toMatchObject({
            toolName: 'send_report',
            current: { description: expect.stringMatching(/id_rsa/) },
          });
          expect(await sentCount(connection)).toBe('0');
        } finally {
          await connection.close();
        }
      });
    });
  }

  describe('a 2026-07-28 HTTP server (serveCatalogueHttp) imported', () => {
    it("negotiates 2026-07-28; the client's checks, then the server's own confirmation round, run the call once", async () => {
      const events: McpEvent[] = [];
      const asked: string[] = [];
      const connection = await connectMcpServer({
        name: 'cases',
        server: { url: http.url, headers: { authorization: 'Bearer token-alice' } },
        onEvent: (event) => events.push(event),
        onElicitation: async ({ params }) => {
          asked.push(params.message);
          return informedYes(params as ElicitRequest['params']);
        },
      });
      try {
        expect(events[0]).toMatchObject({ type: 'connected', protocolVersion: MODERN, era: 'modern' });
        const confirmations = connection.guardConfirmations(new InMemoryConfirmations());
        const alice = createSession({ id: 's', humanId: 'alice', rights: ['mcp:cases'], confirmations });
        const catalogue = connection.catalogue();
        const call = { type: 'tool_call' as const, id: 'c', name: 'close_case', input: { number: 'H-0001' } };
        const context = { catalogue, session: alice, runId: 'r', confirmation: 'refuse' as const };
        expect((await executeCall(call, context)).verdict).toMatchObject({ reason: 'confirmation_required' });
        expect(asked).toEqual([]);
        await confirmations.grant(confirmationFor('close_case', call.input, { humanId: 'alice', runId: 'r' }));
        const ran = await executeCall(call, context);
        expect(ran.verdict.kind).toBe('executed');
        expect(asked).toHaveLength(1);
        expect(closed.filter((number) => number === 'H-0001')).toHaveLength(1);
      } finally {
        await connection.close();
      }
    });
  });
});

async function sentCount(connection: McpConnection): Promise<string> {
  const result = await connection.client.callTool({ name: 'sent_count', arguments: {} });
  return (result.content as { text: string }[])[0]?.text ?? '';
}
