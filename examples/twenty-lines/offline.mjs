// The README's twenty lines with no key: the model's side is scripted, and a local server answers in the
// provider's wire format, so the same adapter and official SDK run over HTTP (see README.md beside this).
import { createModel } from '@toolcircuit/config';
import { createCatalogue, createSession, defineTool, runLoop } from '@toolcircuit/core';
import { startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';

const chercherDossier = defineTool({
  name: 'chercher_dossier',
  description: 'Look up a case file by its exact number (e.g. "A-1234"). Not for searching by name or date.',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'dossiers:read', // deny by default: the session must hold it
  run: async ({ numero }) => ({ numero, statut: 'ouvert' }),
});

// Any "provider:model": the server speaks that provider's wire format.
const spec = process.argv[2] ?? 'anthropic:claude-sonnet-5-5';
const offline = await startScriptedProvider(spec, [
  toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }]), // the model asks for the tool…
  textTurn('Le dossier A-1234 est ouvert.'), // …and answers once the result is back
]);
const model = await createModel(spec, { env: offline.env }); // no key needed

const result = await runLoop({
  model,
  catalogue: createCatalogue([chercherDossier]),
  session: createSession({ id: 'sess-1', humanId: 'alice', rights: ['dossiers:read'] }), // from YOUR auth
  messages: [{ role: 'user', content: 'Où en est le dossier A-1234 ?' }],
});
console.log(result.status, result.text);
await offline.close();
