import type { JsonValue, Message, ToolResultPart } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import {
  CASE_FILE_CALLS_RESPONSE,
  CASE_FILE_FINAL_RESPONSE,
  CASE_FILE_SYSTEM,
  CASE_FILE_TOOLS,
  CASE_FILE_USER,
} from './support/case-files.js';
import { jsonInteraction, type Sdk, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

/** Runs the shared scenario: two parallel calls, then both results (one failed) in one reply. */
async function caseFileRoundTrip(sdk: Sdk) {
  const cassette = syntheticCassette('shared case-file scenario: two parallel calls, then their two results', [
    jsonInteraction(CASE_FILE_CALLS_RESPONSE),
    jsonInteraction(CASE_FILE_FINAL_RESPONSE),
  ]);
  return withReplay(cassette, async (server) => {
    const model = modelFor(sdk, server);
    const first = await model.generate({
      system: CASE_FILE_SYSTEM,
      messages: [CASE_FILE_USER],
      tools: CASE_FILE_TOOLS,
    });
    const [search, list] = first.content.filter((part) => part.type === 'tool_call');
    if (search === undefined || list === undefined) throw new Error('expected two calls');
    const results: ToolResultPart[] = [
      {
        type: 'tool_result',
        callId: search.id,
        name: search.name,
        content: 'A-1234: open, judge Martin',
        isError: false,
      },
      { type: 'tool_result', callId: list.id, name: list.name, content: 'index unavailable', isError: true },
    ];
    const history: Message[] = [
      CASE_FILE_USER,
      { role: 'assistant', content: first.content },
      { role: 'tool', content: results },
    ];
    const second = await model.generate({ system: CASE_FILE_SYSTEM, messages: history, tools: CASE_FILE_TOOLS });
    expect(server.mismatches).toEqual([]);
    return { first, second, requests: server.received };
  });
}

/** The OpenAPI 3.0 subset Gemini's `parameters` accepts (wire-formats.md); any other key is a 400. */
const GEMINI_SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'anyOf',
  'propertyOrdering',
  'default',
  'example',
]);

function keysGeminiRejects(schema: JsonValue | undefined, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  return Object.entries(schema).flatMap(([key, value]) => {
    const here = `${path}/${key}`;
    if (!GEMINI_SCHEMA_KEYS.has(key)) return [here];
    if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return Object.entries(value).flatMap(([name, child]) => keysGeminiRejects(child, `${here}/${name}`));
    }
    if (key === 'items') return keysGeminiRejects(value, here);
    if (key === 'anyOf' && Array.isArray(value))
      return value.flatMap((child, index) => keysGeminiRejects(child, `${here}/${index}`));
    return [];
  });
}

function declaredParameters(body: JsonValue | undefined): JsonValue[] {
  const text = JSON.stringify(body);
  const parsed = JSON.parse(text) as { tools?: { functionDeclarations?: { parameters?: JsonValue }[] }[] };
  return (parsed.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).flatMap((d) => (d.parameters === undefined ? [] : [d.parameters])),
  );
}

describe('the case-file request body', () => {
  it.each(['genai', 'generative-ai'] as const)('declares only keys of the Gemini schema subset (%s)', async (sdk) => {
    const { requests } = await caseFileRoundTrip(sdk);
    for (const request of requests) {
      const parameters = declaredParameters(request.body);
      // chercher_dossier has parameters; lister_dossiers (open, no declared property) goes as parametersJsonSchema.
      expect(parameters).toHaveLength(1);
      expect(parameters.flatMap((schema) => keysGeminiRejects(schema))).toEqual([]);
    }
  });

  it('over @google/genai: functionResponse parts in one user content, signature echoed, no synthetic ids', async () => {
    const { requests, second } = await caseFileRoundTrip('genai');
    expect(second.content).toEqual([{ type: 'text', text: 'Case A-1234 is open; the list is unavailable.' }]);
    expect(requests[1]?.body).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "Open case A-1234, and list the others.",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "functionCall": {
                  "args": {
                    "numero": "A-1234",
                  },
                  "name": "chercher_dossier",
                },
                "thoughtSignature": "Q2FzZUZpbGVTaWc=",
              },
              {
                "functionCall": {
                  "args": {},
                  "name": "lister_dossiers",
                },
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "chercher_dossier",
                  "response": {
                    "output": "A-1234: open, judge Martin",
                  },
                },
              },
              {
                "functionResponse": {
                  "name": "lister_dossiers",
                  "response": {
                    "error": "index unavailable",
                  },
                },
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {},
        "systemInstruction": {
          "parts": [
            {
              "text": "You look up case files.",
            },
          ],
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "Find one case file by its number.",
                "name": "chercher_dossier",
                "parameters": {
                  "properties": {
                    "numero": {
                      "pattern": "^[A-Z]-[0-9]{4}$",
                      "type": "STRING",
                    },
                  },
                  "required": [
                    "numero",
                  ],
                  "type": "OBJECT",
                },
              },
              {
                "description": "List every case file.",
                "name": "lister_dossiers",
              },
            ],
          },
        ],
      }
    `);
  });

  it('over @google/generative-ai: the same, with role "function" for the results', async () => {
    const { requests } = await caseFileRoundTrip('generative-ai');
    expect(requests[1]?.body).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "Open case A-1234, and list the others.",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "functionCall": {
                  "args": {
                    "numero": "A-1234",
                  },
                  "name": "chercher_dossier",
                },
                "thoughtSignature": "Q2FzZUZpbGVTaWc=",
              },
              {
                "functionCall": {
                  "args": {},
                  "name": "lister_dossiers",
                },
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "name": "chercher_dossier",
                  "response": {
                    "output": "A-1234: open, judge Martin",
                  },
                },
              },
              {
                "functionResponse": {
                  "name": "lister_dossiers",
                  "response": {
                    "error": "index unavailable",
                  },
                },
              },
            ],
            "role": "function",
          },
        ],
        "generationConfig": {},
        "safetySettings": [],
        "systemInstruction": {
          "parts": [
            {
              "text": "You look up case files.",
            },
          ],
          "role": "system",
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "Find one case file by its number.",
                "name": "chercher_dossier",
                "parameters": {
                  "properties": {
                    "numero": {
                      "pattern": "^[A-Z]-[0-9]{4}$",
                      "type": "string",
                    },
                  },
                  "required": [
                    "numero",
                  ],
                  "type": "object",
                },
              },
              {
                "description": "List every case file.",
                "name": "lister_dossiers",
              },
            ],
          },
        ],
      }
    `);
  });
});
