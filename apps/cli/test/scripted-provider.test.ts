// An application's own conversation, scripted as neutral turns, played by a local server in each provider's
// wire format: the real adapter and its official SDK run over HTTP with no key (`startScriptedProvider`, the
// README's no-key variant). Here because only the CLI's tests have every adapter beside them.
import { createModel } from '@toolcircuit/config';
import { createCatalogue, createSession, defineTool, runLoop } from '@toolcircuit/core';
import { scriptedCassette, startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';

const seen: string[] = [];
const lookup = defineTool({
  name: 'chercher_dossier',
  description: 'Look up a case file by its exact number (e.g. "A-1234").',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'dossiers:read',
  run: async ({ numero }) => {
    seen.push(numero);
    return { numero, statut: 'ouvert' };
  },
});

const TURNS = [
  toolCallsTurn(
    [
      { name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { name: 'chercher_dossier', input: { numero: 'b-12' } }, // refused by the schema check
    ],
    { text: 'Je regarde.' },
  ),
  textTurn('Le dossier A-1234 est ouvert.'),
];

describe('startScriptedProvider: scripted turns through each real adapter, offline', () => {
  it.each(['anthropic:claude-sonnet-5-5', 'openai:gpt-5.2', 'openai-responses:gpt-5.2', 'google:gemini-3-flash'])(
    '%s',
    async (spec) => {
      seen.length = 0;
      const offline = await startScriptedProvider(spec, TURNS);
      try {
        const model = await createModel(spec, { env: offline.env, configFile: false });
        expect(`${model.provider}:${model.modelId}`).toMatch(new RegExp(`:${spec.split(':')[1]}$`));
        const result = await runLoop({
          model,
          catalogue: createCatalogue([lookup]),
          session: createSession({ id: 's', humanId: 'alice', rights: ['dossiers:read'] }),
          messages: [{ role: 'user', content: 'Où en est le dossier A-1234 ?' }],
        });
        expect(result.status).toBe('completed');
        expect(result.text).toBe('Le dossier A-1234 est ouvert.');
        expect(seen).toEqual(['A-1234']);
        // The refusal went back to the provider in its own format, in the second request's body.
        expect(JSON.stringify(offline.server.received[1]?.body)).toContain('must match pattern');
        expect(() => offline.assertDone()).not.toThrow();
      } finally {
        await offline.close();
      }
    },
  );

  it('env points createModel at the server, with a placeholder key in the provider’s variable', async () => {
    const offline = await startScriptedProvider('openai:gpt-5.2', [textTurn('ok')]);
    await offline.close();
    expect(offline.env).toEqual({
      TOOLCIRCUIT_MODEL: 'openai:gpt-5.2',
      TOOLCIRCUIT_BASE_URL: `${offline.url}/v1`,
      OPENAI_API_KEY: 'offline-placeholder',
    });
    expect(offline.baseURL).toBe(`${offline.url}/v1`);
  });

  it('a Gemini cassette names the application’s model in its path; a bad spec or input is a clear error', async () => {
    const cassette = scriptedCassette('gemini', [textTurn('ok')], { model: 'gemini-3-flash' });
    expect(cassette.interactions[0]?.request.path).toBe('/v1beta/models/gemini-3-flash:generateContent');
    expect(cassette.provenance?.kind).toBe('synthetic');
    await expect(startScriptedProvider('antropic:claude', [])).rejects.toThrow(/provider among anthropic/);
    expect(() =>
      scriptedCassette('anthropic-messages', [toolCallsTurn([{ name: 'x', input: ['not', 'an', 'object'] }])]),
    ).toThrow(/input must be a JSON object/);
  });
});
