import { createCatalogue, defineTool, everySession } from '@toolcircuit/core';

/**
 * The tools the official conformance suite's server scenarios call, as plain toolcircuit tools (names and
 * answers from the scenarios' descriptions). Open to every session: the suite's client is anonymous.
 */
export const conformanceCatalogue = createCatalogue([
  defineTool({
    name: 'test_simple_text',
    description: 'Returns a simple text response.',
    inputSchema: { type: 'object', properties: {} },
    right: everySession,
    run: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: {} },
    right: everySession,
    run: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    right: everySession,
    run: (input) => input,
  }),
]);
