import type { Message, ModelRequest, ToolDeclaration } from '@toolcircuit/core';

/** The shared scenario every adapter snapshots (same in the Anthropic and Gemini packages). */
export const CASE_FILE_TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'chercher_dossier',
    description: 'Looks up one case file by its number.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
      required: ['numero'],
      additionalProperties: false,
    },
  },
  {
    name: 'lister_dossiers',
    description: 'Lists the open case files.',
    inputSchema: { type: 'object', properties: {} },
  },
]);

export const CASE_FILE_SYSTEM = 'You look up case files.';

const history: readonly Message[] = [
  { role: 'user', content: 'Find case A-1234 and list the open ones.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking both up.' },
      { type: 'tool_call', id: 'call_A', name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { type: 'tool_call', id: 'call_B', name: 'lister_dossiers', input: {} },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool_result',
        callId: 'call_A',
        name: 'chercher_dossier',
        content: 'A-1234: open, judge Martin.',
        isError: false,
      },
      {
        type: 'tool_result',
        callId: 'call_B',
        name: 'lister_dossiers',
        content: 'lister_dossiers timed out',
        isError: true,
      },
    ],
  },
];

export function caseFileRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: CASE_FILE_SYSTEM, messages: history, tools: CASE_FILE_TOOLS, ...overrides };
}
