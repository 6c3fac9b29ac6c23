import { describe, expect, it } from 'vitest';
import {
  type AnyToolDefinition,
  createCatalogue,
  DuplicateToolNameError,
  defineTool,
  everySession,
  InvalidToolDefinitionError,
  type JsonObject,
  SchemaCompileError,
} from '../../src/index.js';

function tool(name: string, inputSchema: JsonObject, description = `tool ${name}`): AnyToolDefinition {
  return defineTool({ name, description, inputSchema, right: everySession, run: () => 'ok' });
}

/** The schemas a whole server's tool list may hold that no validator can use (each must be refused by name). */
const BROKEN: Record<string, JsonObject> = {
  minimum_not_a_number: { type: 'object', properties: { n: { type: 'integer', minimum: 'three' } } },
  invalid_pattern: { type: 'object', properties: { s: { type: 'string', pattern: '([a-z' } } },
  empty_enum: { type: 'object', properties: { e: { enum: [] } } },
  empty_all_of: { type: 'object', allOf: [] },
  unresolvable_ref: { type: 'object', properties: { r: { $ref: '#/$defs/missing' } } },
};

describe('createCatalogue lenient mode', () => {
  it('strict mode (the default) throws on each broken schema, naming the tool', () => {
    for (const [name, schema] of Object.entries(BROKEN)) {
      expect(() => createCatalogue([tool(name, schema)]), name).toThrow(SchemaCompileError);
      expect(() => createCatalogue([tool(name, schema)]), name).toThrow(name);
    }
  });

  it('loads the valid tools of a list and returns the refused ones with the error strict mode throws', () => {
    const good = tool('good', { type: 'object', properties: { a: { type: 'string' } } });
    const list = [
      ...Object.entries(BROKEN).map(([name, schema]) => tool(name, schema)),
      good,
      tool('good', { type: 'object' }),
      tool('blank', { type: 'object' }, '   '),
    ];
    const catalogue = createCatalogue(list, { mode: 'lenient' });
    expect(catalogue.names).toEqual(['good']);
    expect(catalogue.refused.map((refusal) => [refusal.index, refusal.name, refusal.error.constructor])).toEqual([
      [0, 'minimum_not_a_number', SchemaCompileError],
      [1, 'invalid_pattern', SchemaCompileError],
      [2, 'empty_enum', SchemaCompileError],
      [3, 'empty_all_of', SchemaCompileError],
      [4, 'unresolvable_ref', SchemaCompileError],
      [6, 'good', DuplicateToolNameError],
      [7, 'blank', InvalidToolDefinitionError],
    ]);
    for (const refusal of catalogue.refused) {
      expect(refusal.error.kind).toBe('configuration');
      const strict = (() => {
        try {
          createCatalogue([
            list[refusal.index] as AnyToolDefinition,
            ...(refusal.name === 'good' ? [list[refusal.index] as AnyToolDefinition] : []),
          ]);
        } catch (error) {
          return (error as Error).message;
        }
        return undefined;
      })();
      expect(strict).toBe(refusal.error.message);
    }
  });

  it('an empty or blank description is refused (the model chooses tools by it)', () => {
    expect(() => createCatalogue([tool('t', { type: 'object' }, '')])).toThrow(/non-empty string/);
    expect(() => createCatalogue([tool('t', { type: 'object' }, '\n ')])).toThrow(InvalidToolDefinitionError);
  });
});
