import { describe, expect, it } from 'vitest';
import { CatalogueFormatError, parseCatalogue } from '../src/index.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } };

describe('parseCatalogue', () => {
  it('reads MCP tools/list results, bare or inside JSON-RPC', () => {
    const tools = [{ name: 'search', description: 'Search', inputSchema: schema }];
    expect(parseCatalogue({ tools })).toEqual([{ name: 'search', description: 'Search', inputSchema: schema }]);
    expect(parseCatalogue({ jsonrpc: '2.0', id: 1, result: { tools } })).toHaveLength(1);
  });

  it('reads OpenAI Chat, Responses and legacy function lists', () => {
    expect(
      parseCatalogue([{ type: 'function', function: { name: 'a', description: 'A', parameters: schema } }]),
    ).toEqual([{ name: 'a', description: 'A', inputSchema: schema }]);
    expect(parseCatalogue([{ type: 'function', name: 'b', parameters: schema, strict: true }])[0]?.name).toBe('b');
    expect(parseCatalogue({ functions: [{ name: 'c', parameters: schema }] })[0]).toEqual({
      name: 'c',
      description: '',
      inputSchema: schema,
    });
  });

  it('reads Anthropic tools, Gemini declarations and BFCL entries', () => {
    expect(parseCatalogue([{ name: 'd', description: 'D', input_schema: schema }])[0]?.inputSchema).toBe(schema);
    expect(
      parseCatalogue([{ functionDeclarations: [{ name: 'e', parametersJsonSchema: schema }, { name: 'f' }] }]),
    ).toEqual([
      { name: 'e', description: '', inputSchema: schema },
      { name: 'f', description: '', inputSchema: { type: 'object', properties: {} } },
    ]);
    const bfcl = {
      name: 'math.factorial',
      description: 'n!',
      parameters: { type: 'dict', properties: { n: { type: 'integer' } } },
    };
    expect(parseCatalogue({ function: [bfcl] })[0]?.inputSchema).toEqual(bfcl.parameters);
  });

  it('keeps the corpus provenance and refuses what it cannot read, by source and index', () => {
    expect(
      parseCatalogue([{ name: 'g', description: '', input_schema: schema, source: 'repo@sha:path' }])[0]?.source,
    ).toBe('repo@sha:path');
    expect(() => parseCatalogue([{ description: 'no name' }], 'broken.json')).toThrow(/broken\.json\[0\]/);
    expect(() => parseCatalogue('nope', 'text.json')).toThrow(CatalogueFormatError);
    expect(() => parseCatalogue([{ name: 'h', parameters: 'not a schema' }])).toThrow(
      /"parameters" must be a JSON object/,
    );
  });
});
