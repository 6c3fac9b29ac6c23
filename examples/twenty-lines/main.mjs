import { createModel } from '@toolcircuit/config';
import { createCatalogue, createSession, defineTool, runLoop } from '@toolcircuit/core';

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
  run: async ({ numero }) => ({ numero, statut: 'ouvert' }), // `numero: string`, inferred from the schema
});

const result = await runLoop({
  model: await createModel('anthropic:claude-sonnet-5-5'), // or 'openai:gpt-5.2', 'google:gemini-2.5-flash'…
  catalogue: createCatalogue([chercherDossier]),
  session: createSession({ id: 'sess-1', humanId: 'alice', rights: ['dossiers:read'] }), // from YOUR auth
  messages: [{ role: 'user', content: 'Où en est le dossier A-1234 ?' }],
});
console.log(result.status, result.text);
