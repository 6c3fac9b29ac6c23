import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyToolDefinition,
  createCatalogue,
  DuplicateToolNameError,
  defineTool,
  everySession,
  InvalidToolDefinitionError,
  InvalidToolNameError,
  type JsonObject,
  RootSchemaNotObjectError,
  SchemaCompileError,
  type ToolcircuitError,
  UnsupportedSchemaError,
} from '../../src/index.js';
import { chercherDossier } from '../fixtures.js';

function tool(name: string, inputSchema: JsonObject = { type: 'object' }): AnyToolDefinition {
  return defineTool({ name, description: `tool ${name}`, inputSchema, right: everySession, run: () => 'ok' });
}

function thrown(action: () => unknown): ToolcircuitError {
  try {
    action();
  } catch (error) {
    return error as ToolcircuitError;
  }
  throw new Error('expected the action to throw');
}

describe('createCatalogue registration', () => {
  it('rejects duplicate names with a typed configuration error naming the tool', () => {
    const error = thrown(() => createCatalogue([tool('a'), tool('b'), tool('a')]));
    expect(error).toBeInstanceOf(DuplicateToolNameError);
    expect(error.kind).toBe('configuration');
    expect(error.code).toBe('duplicate_tool_name');
    expect(error.message).toContain('"a"');
    expect(error.message).toMatch(/rename/);
  });

  it.each([
    ['', /empty/],
    ['x'.repeat(129), /129 characters/],
    ['chercher dossier', /" "/],
    ['numéro', /"é"/],
    ['a/b', /"\/"/],
  ])('rejects the name %j that no provider accepts', (name, problem) => {
    const error = thrown(() => createCatalogue([tool(name)]));
    expect(error).toBeInstanceOf(InvalidToolNameError);
    expect(error.message).toMatch(problem);
    expect(error.message).toContain('^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$');
  });

  it('accepts names only some providers reject (a later layer renames them per provider)', () => {
    const names = ['files.read', '2fa_check', 'x'.repeat(128), 'kebab-name'];
    expect(createCatalogue(names.map((name) => tool(name))).names).toEqual(names);
  });

  it('rejects a schema that does not compile, naming the tool', () => {
    const badType = thrown(() =>
      createCatalogue([tool('bfcl', { type: 'object', properties: { when: { type: 'dict' } } })]),
    );
    expect(badType).toBeInstanceOf(SchemaCompileError);
    expect(badType.message).toContain('"bfcl"');
    const badRef = thrown(() =>
      createCatalogue([tool('ref', { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } })]),
    );
    expect(badRef).toBeInstanceOf(SchemaCompileError);
    expect(badRef.message).toContain('#/definitions/missing');
  });

  it('rejects a draft it cannot validate instead of silently ignoring it', () => {
    const error = thrown(() =>
      createCatalogue([tool('old', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })]),
    );
    expect(error).toBeInstanceOf(SchemaCompileError);
    expect(error.message).toMatch(/draft-04/);
  });

  it.each([
    [{ type: 'string' }, /type "string"/],
    [{ properties: { a: { type: 'string' } } }, /no "type"/],
  ] as const)('rejects a root schema that is not an object: %j', (schema, found) => {
    const error = thrown(() => createCatalogue([tool('root', schema as JsonObject)]));
    expect(error).toBeInstanceOf(RootSchemaNotObjectError);
    expect(error.message).toMatch(found);
    expect(error.message).toContain('type: "object"');
  });

  it('refuses a root that is not an object with what its JSON copy says, whatever else the schema holds', () => {
    const asTool = (inputSchema: unknown) => ({ ...tool('r'), inputSchema }) as unknown as AnyToolDefinition;
    // Plain data: refused as its copy would be (the copy is skipped), with the same text.
    const plain = thrown(() => createCatalogue([asTool({ type: 'dict', properties: { a: { type: 'x' } } })]));
    expect(plain).toBeInstanceOf(RootSchemaNotObjectError);
    expect(plain.message).toContain('found type "dict"');
    // Not plain: the JSON copy decides first, as before: a cycle is no JSON, and `toJSON` may give an object.
    const cyclic: Record<string, unknown> = { type: 'dict' };
    cyclic.self = cyclic;
    const cycle = thrown(() => createCatalogue([asTool(cyclic)]));
    expect(cycle).toBeInstanceOf(SchemaCompileError);
    expect(cycle.message).toContain('not plain JSON data');
    const converted = { type: 'dict', toJSON: () => ({ type: 'object', properties: {} }) };
    expect(createCatalogue([asTool(converted)]).get('r')?.declaration.inputSchema).toEqual({
      type: 'object',
      properties: {},
    });
    const undefinedMember = thrown(() => createCatalogue([asTool({ type: 'string', note: undefined })]));
    expect(undefinedMember.message).toContain('found type "string"');
  });

  it('rejects boolean and array roots, and a Zod schema that is not an object', () => {
    const asTool = (inputSchema: unknown) => ({ ...tool('r'), inputSchema }) as unknown as AnyToolDefinition;
    expect(thrown(() => createCatalogue([asTool(true)]))).toBeInstanceOf(RootSchemaNotObjectError);
    expect(thrown(() => createCatalogue([asTool([])]))).toBeInstanceOf(RootSchemaNotObjectError);
    const zodString = defineTool({ name: 'z', description: 'z', inputSchema: z.string(), right: 'r', run: () => 'x' });
    expect(thrown(() => createCatalogue([zodString]))).toBeInstanceOf(RootSchemaNotObjectError);
  });

  it('is deny-by-default: a tool without a right is refused, everySession must be explicit', () => {
    const noRight = { ...tool('open'), right: undefined } as unknown as AnyToolDefinition;
    const error = thrown(() => createCatalogue([noRight]));
    expect(error).toBeInstanceOf(InvalidToolDefinitionError);
    expect(error.message).toContain('everySession');
    expect(() => createCatalogue([tool('open')])).not.toThrow();
  });

  it('refuses a Standard Schema that cannot describe itself as JSON Schema', () => {
    const validateOnly = {
      '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) },
    };
    const definition = { ...tool('acme'), inputSchema: validateOnly } as unknown as AnyToolDefinition;
    const error = thrown(() => createCatalogue([definition]));
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect(error.message).toContain('acme');
  });
});

describe('catalogue declarations and validation', () => {
  it('exposes one frozen declarations array, reused on every access', () => {
    const catalogue = createCatalogue([chercherDossier, tool('b')]);
    expect(catalogue.declarations).toBe(catalogue.declarations);
    expect(Object.isFrozen(catalogue.declarations)).toBe(true);
    expect(Object.isFrozen(catalogue.declarations[0]?.inputSchema)).toBe(true);
    expect(catalogue.declarations.map((declaration) => declaration.name)).toEqual(['chercher_dossier', 'b']);
  });

  it('keeps its own copy of the schema: later mutation of the caller object changes nothing', async () => {
    const schema: { type: 'object'; properties: Record<string, unknown>; required: string[] } = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    };
    const catalogue = createCatalogue([tool('m', schema as JsonObject)]);
    schema.required.push('b');
    expect((await catalogue.validate('m', { a: 'x' })).ok).toBe(true);
    expect(catalogue.declarations[0]?.inputSchema.required).toEqual(['a']);
  });

  it('lets $schema pick the draft: prefixItems is enforced under 2020-12, ignored under draft-07', async () => {
    const items = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] };
    const catalogue = createCatalogue([
      tool('modern', {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { pair: items },
      }),
      tool('classic', { type: 'object', properties: { pair: items } }),
    ]);
    expect((await catalogue.validate('modern', { pair: ['a', 'b'] })).ok).toBe(false);
    expect((await catalogue.validate('modern', { pair: ['a', 1] })).ok).toBe(true);
    expect((await catalogue.validate('classic', { pair: ['a', 'b'] })).ok).toBe(true);
  });

  it('checks formats (ajv-formats is wired in)', async () => {
    const catalogue = createCatalogue([
      tool('f', { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }),
    ]);
    expect((await catalogue.validate('f', { id: 'not-a-uuid' })).ok).toBe(false);
    expect((await catalogue.validate('f', { id: '123e4567-e89b-12d3-a456-426614174000' })).ok).toBe(true);
  });

  it('shows the model the converted JSON Schema of a Zod tool but validates with Zod itself', async () => {
    const zodTool = defineTool({
      name: 'even',
      description: 'Takes an even number.',
      inputSchema: z.object({ n: z.number().refine((n) => n % 2 === 0, 'n must be even') }),
      right: everySession,
      run: ({ n }) => n,
    });
    const catalogue = createCatalogue([zodTool]);
    expect(catalogue.declarations[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    const odd = await catalogue.validate('even', { n: 3 });
    expect(odd).toMatchObject({ ok: false });
    expect(odd.ok === false && odd.message).toContain('n must be even');
    expect(await catalogue.validate('even', { n: 4 })).toEqual({ ok: true, value: { n: 4 } });
  });

  it('reports an unknown tool from validate instead of throwing', async () => {
    expect(await createCatalogue([]).validate('nope', {})).toMatchObject({ ok: false });
  });
});
