// The catalogue's side of scoped search: tools carry their namespace and aliases to the search, the search
// tool offers the model a `namespace` filter (an enum of the namespaces it knows) and words its description
// so the model writes a focused query, bad hints are refused at registration, and `normalizeSchema` lets a
// catalogue load tool lists written in another dialect.
import { describe, expect, it } from 'vitest';
import {
  type AnyToolDefinition,
  createCatalogue,
  defineTool,
  everySession,
  InvalidToolDefinitionError,
  type JsonObject,
  SchemaCompileError,
  toolResultText,
} from '../../src/index.js';

const tool = (name: string, description: string, namespace?: string, aliases?: string[]) =>
  defineTool({
    name,
    description,
    inputSchema: { type: 'object', properties: {} },
    right: everySession,
    run: () => 'ok',
    ...(namespace === undefined && aliases === undefined
      ? {}
      : {
          search: { ...(namespace === undefined ? {} : { namespace }), ...(aliases === undefined ? {} : { aliases }) },
        }),
  });

const context = { signal: new AbortController().signal } as never;

describe('tool search scoped by namespace', () => {
  const catalogue = createCatalogue(
    [
      tool('create_issue', 'Creates an issue in a repository.', 'github'),
      tool('create_ticket', 'Creates an issue in a project.', 'jira'),
      tool('send_sms', 'Sends an SMS.', 'twilio', ['text message']),
    ],
    { defer: true },
  );
  const search = catalogue.toolSearch;

  it('offers the model a namespace filter and asks for a focused query', () => {
    const schema = search?.declaration.inputSchema as JsonObject;
    const properties = schema.properties as Record<string, JsonObject>;
    expect(properties.namespace).toMatchObject({ type: 'string', enum: ['github', 'jira', 'twilio'] });
    expect(search?.namespaces).toEqual(['github', 'jira', 'twilio']);
    expect(search?.declaration.description).toMatch(/one action at a time/);
    expect(search?.declaration.description).toMatch(/`namespace`/);
    expect(String(properties.query?.description)).toMatch(/not the user's whole message/);
  });

  it('runs a search within the namespace the model gives, and finds a tool by its alias', async () => {
    const definition = catalogue.get('tool_search')?.definition as AnyToolDefinition;
    const run = definition.run as unknown as (
      input: unknown,
      context: never,
    ) => Promise<{ isError: boolean; content: unknown }>;
    const scoped = await run({ query: 'create issue', namespace: 'jira' }, context);
    expect(JSON.stringify(scoped.content)).toContain('"loaded":["create_ticket"]');
    const aliased = await run({ query: 'text message my friend' }, context);
    expect(JSON.stringify(aliased.content)).toContain('"loaded":["send_sms"]');
    const none = await run({ query: 'create issue', namespace: 'twilio' }, context);
    expect(toolResultText(none.content as never)).toMatch(
      /No tool matched.*search without a namespace \(there are: github, jira, twilio\)/s,
    );
    expect(await catalogue.validate('tool_search', { query: 'x', namespace: 'gitlab' })).toMatchObject({ ok: false });
  });

  it('gives no namespace parameter to a catalogue without namespaces', () => {
    const plain = createCatalogue([tool('a', 'First.'), tool('b', 'Second.')], { defer: true });
    const schema = plain.toolSearch?.declaration.inputSchema as JsonObject;
    const properties = schema.properties as JsonObject;
    expect(Object.keys(properties)).toEqual(['query', 'limit']);
  });

  it('refuses search hints of the wrong shape, naming the fix', () => {
    const bad = { ...tool('a', 'First.'), search: { namespace: 7 } } as unknown as AnyToolDefinition;
    expect(() => createCatalogue([bad])).toThrow(InvalidToolDefinitionError);
    expect(() => createCatalogue([bad])).toThrow(/namespace is not a string/);
    const aliases = { ...tool('a', 'First.'), search: { aliases: 'sms' } } as unknown as AnyToolDefinition;
    expect(() => createCatalogue([aliases])).toThrow(/aliases are not a list of strings/);
  });
});

describe('createCatalogue with normalizeSchema', () => {
  // A dialect of its own, the way BFCL writes schemas: `dict` for object, `float` for number.
  const bfclStyle = {
    name: 'calculate_triangle_area',
    description: 'Calculate the area of a triangle given its base and height.',
    inputSchema: {
      type: 'dict',
      properties: { base: { type: 'float' }, height: { type: 'float' } },
      required: ['base', 'height'],
    },
    right: everySession,
    irreversible: false,
    run: () => 'ok',
  } as unknown as AnyToolDefinition;
  const rename = (schema: JsonObject): JsonObject =>
    JSON.parse(JSON.stringify(schema).replaceAll('"dict"', '"object"').replaceAll('"float"', '"number"')) as JsonObject;

  it('loads, shows and validates the normalised schema', async () => {
    expect(createCatalogue([bfclStyle], { mode: 'lenient' }).refused).toHaveLength(1);
    const catalogue = createCatalogue([bfclStyle], { normalizeSchema: rename });
    expect(catalogue.get('calculate_triangle_area')?.declaration.inputSchema).toMatchObject({
      type: 'object',
      properties: { base: { type: 'number' } },
    });
    expect(await catalogue.validate('calculate_triangle_area', { base: 3, height: 4 })).toEqual({
      ok: true,
      value: { base: 3, height: 4 },
    });
    expect((await catalogue.validate('calculate_triangle_area', { base: 'x', height: 4 })).ok).toBe(false);
  });

  it("reports a normaliser that throws as the tool's schema error", () => {
    const failing = () => {
      throw new Error('unknown type "tuple"');
    };
    expect(() => createCatalogue([bfclStyle], { normalizeSchema: failing })).toThrow(SchemaCompileError);
    expect(() => createCatalogue([bfclStyle], { normalizeSchema: failing })).toThrow(
      /normalizeSchema refused it \(unknown type "tuple"\)/,
    );
  });
});
