// The shared scenario every adapter snapshots: one system text, a user question, two tools, an assistant
// turn with two parallel calls, and the tool message with both results (the second one an error).
import type { Message, ModelRequest, ToolDeclaration } from '@toolcircuit/core';

export const CASE_FILE_TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'chercher_dossier',
    description: 'Find a case file by its number.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
      required: ['numero'],
      additionalProperties: false,
    },
  },
  {
    name: 'lister_dossiers',
    description: 'List every open case file.',
    inputSchema: { type: 'object', properties: {} },
  },
]);

export const CASE_FILE_MESSAGES: readonly Message[] = [
  { role: 'user', content: 'Open case A-1234 and list the others.' },
  {
    role: 'assistant',
    content: [
      { type: 'tool_call', id: 'toolu_01', name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { type: 'tool_call', id: 'toolu_02', name: 'lister_dossiers', input: {} },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool_result',
        callId: 'toolu_01',
        name: 'chercher_dossier',
        content: '{"numero":"A-1234","statut":"ouvert"}',
        isError: false,
      },
      {
        type: 'tool_result',
        callId: 'toolu_02',
        name: 'lister_dossiers',
        content: 'database unavailable',
        isError: true,
      },
    ],
  },
];

export const CASE_FILE_REQUEST: ModelRequest = {
  system: 'You look up case files.',
  messages: CASE_FILE_MESSAGES,
  tools: CASE_FILE_TOOLS,
};
