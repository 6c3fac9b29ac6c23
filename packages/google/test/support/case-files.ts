import type { Message, ToolDeclaration } from '@toolcircuit/core';

/** The scenario every adapter snapshots (same tools, same turns), so the wire formats can be compared. */
export const CASE_FILE_SYSTEM = 'You look up case files.';

export const CASE_FILE_TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'chercher_dossier',
    description: 'Find one case file by its number.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
      required: ['numero'],
      additionalProperties: false,
    },
  },
  { name: 'lister_dossiers', description: 'List every case file.', inputSchema: { type: 'object', properties: {} } },
]);

export const CASE_FILE_USER: Message = { role: 'user', content: 'Open case A-1234, and list the others.' };

/** Gemini's answer: two parallel calls, no ids, the signature on the first part only. */
export const CASE_FILE_CALLS_RESPONSE = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'chercher_dossier', args: { numero: 'A-1234' } },
            thoughtSignature: 'Q2FzZUZpbGVTaWc=',
          },
          { functionCall: { name: 'lister_dossiers', args: {} } },
        ],
      },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'case-files-1',
};

export const CASE_FILE_FINAL_RESPONSE = {
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'Case A-1234 is open; the list is unavailable.' }] },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: { promptTokenCount: 110, candidatesTokenCount: 12, totalTokenCount: 122 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'case-files-2',
};
