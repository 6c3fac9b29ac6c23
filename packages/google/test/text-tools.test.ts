import {
  createCatalogue,
  createSession,
  defineTextTool,
  InMemoryJournal,
  type JsonObject,
  runLoop,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { prepareGoogleDeclarations } from '../src/google-prepare-tools.js';
import { jsonInteraction, SDKS, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const sql = (ran: string[]) =>
  defineTextTool({
    name: 'run_sql',
    description: 'Run one SQL query.',
    grammar: { syntax: 'regex', definition: 'SELECT .+;' },
    right: 'sql:read',
    run: (query) => {
      ran.push(query);
      return '3 rows';
    },
  });

describe.each(SDKS)('Gemini over %s: a text tool is a function with one string parameter', (sdk) => {
  it('hands the text to the tool after the checks, and sends it back as that one argument', async () => {
    const ran: string[] = [];
    const journal = new InMemoryJournal();
    const cassette = syntheticCassette('a call of a text tool declared as a function, then an answer', [
      jsonInteraction({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'run_sql', args: { input: 'SELECT * FROM users;' } } },
                { functionCall: { name: 'run_sql', args: { query: 'SELECT 1;' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      }),
      jsonInteraction({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Three.' }] }, finishReason: 'STOP' }],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      await runLoop({
        model: modelFor(sdk, server),
        catalogue: createCatalogue([sql(ran)]),
        session: createSession({ id: 's', humanId: 'h', rights: ['sql:read'] }),
        messages: [{ role: 'user', content: 'Count.' }],
        journal,
      });
      const declaration = (server.received[0]?.body as { tools: { functionDeclarations: JsonObject[] }[] } | undefined)
        ?.tools[0]?.functionDeclarations[0];
      expect(declaration).toMatchObject({ name: 'run_sql', parameters: { required: ['input'] } });
      const model = (server.received[1]?.body as { contents: { parts: JsonObject[] }[] } | undefined)?.contents[1];
      expect(model?.parts.map((part) => (part['functionCall'] as JsonObject)['args'])).toEqual([
        { input: 'SELECT * FROM users;' },
        // What the model sent, back as it sent it: it is told why it was refused.
        { query: 'SELECT 1;' },
      ]);
    });
    expect(ran).toEqual(['SELECT * FROM users;']);
    // A call without the one string argument is refused by the text tool's own check, and nothing ran.
    expect(journal.entries.map((entry) => [entry.verdict, entry.reason])).toEqual([
      ['executed', undefined],
      ['refused', 'invalid_input'],
    ]);
  });
});

it('the change log names the degradation (text-input-as-function)', () => {
  const prepared = prepareGoogleDeclarations(createCatalogue([sql([])]).declarations, 'gemini');
  expect(prepared.changes).toEqual([expect.objectContaining({ path: '', kind: 'text-input-as-function' })]);
});
