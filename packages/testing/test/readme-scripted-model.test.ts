// The README's scripted-model example, verbatim (vitest maps @toolcircuit/testing to this package's sources):
// the last test fails when the README and this file drift apart.
import { createCatalogue, createSession, defineTool, runLoop } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { expect, it } from 'vitest';

const lookup = defineTool({
  name: 'chercher_dossier',
  description: 'Look up a case file by its exact number.',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'dossiers:read',
  run: async ({ numero }) => ({ numero, statut: 'ouvert' }),
});

it('refuses a malformed number, then answers from the tool', async () => {
  const model = createScriptedModel([
    toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'a-1' } }]), // fails the schema check
    toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }]),
    textTurn('Le dossier A-1234 est ouvert.'),
  ]);
  const result = await runLoop({
    model,
    catalogue: createCatalogue([lookup]),
    session: createSession({ id: 's', humanId: 'alice', rights: ['dossiers:read'] }),
    messages: [{ role: 'user', content: 'Où en est le dossier A-1234 ?' }],
  });
  expect(result.status).toBe('completed');
  expect(model.remaining).toBe(0);
  // What the model was sent: the refusal came back as an isError result it can act on.
  const firstReply = model.requests[1]?.messages.at(-1);
  expect(firstReply).toMatchObject({ role: 'tool', content: [{ type: 'tool_result', isError: true }] });
});

it('is the example printed in the README', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const printed = /## Scripted models[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const here = readFileSync(new URL(import.meta.url), 'utf8');
  expect(printed).toBeDefined();
  expect(here).toContain((printed ?? '').replace("from '@toolcircuit/testing'", "from '@toolcircuit/testing'"));
});
