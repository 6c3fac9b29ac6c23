import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { runBin } from './support/cli-process.js';

const DEMO = 'dist/demo/demo-catalogue.js';

interface Converted {
  provider: string;
  tools: unknown[];
  changes: { tool: string; path: string; kind: string; detail: string }[];
  refused: { tool: string; message: string }[];
}

async function convert(file: string, provider: string): Promise<{ code: number | null; result: Converted }> {
  const { code, stdout } = await runBin(['convert', file, '--provider', provider, '--json']);
  return { code, result: JSON.parse(stdout) as Converted };
}

describe('toolcircuit convert', () => {
  it('prints the tools exactly as each adapter sends them through its SDK', async () => {
    const anthropic = await convert(DEMO, 'anthropic');
    expect(anthropic.code).toBe(0);
    expect(anthropic.result.tools).toHaveLength(3);
    expect(anthropic.result.tools[0]).toMatchObject({
      name: 'chercher_dossier',
      input_schema: { type: 'object', required: ['numero'] },
    });
    expect(anthropic.result.changes).toContainEqual(
      expect.objectContaining({
        tool: 'chercher_dossier',
        path: '/properties/numero/pattern',
        kind: 'moved-to-description',
      }),
    );

    const chat = await convert(DEMO, 'openai');
    expect(chat.result.tools[2]).toMatchObject({
      type: 'function',
      function: { name: 'cloturer_dossier', parameters: { properties: { motif: { minLength: 3 } } } },
    });

    const strict = await convert(DEMO, 'openai-strict');
    expect(strict.result.tools[0]).toMatchObject({
      type: 'function',
      function: { name: 'chercher_dossier', strict: true },
    });

    const responses = await convert(DEMO, 'openai-responses');
    expect(responses.result.tools[0]).toMatchObject({
      type: 'function',
      name: 'chercher_dossier',
      parameters: { type: 'object' },
    });

    const gemini = await convert(DEMO, 'gemini');
    const [declarations] = gemini.result.tools as {
      functionDeclarations: { name: string; parameters: { type: string } }[];
    }[];
    expect(
      declarations?.functionDeclarations.map((declaration) => [declaration.name, declaration.parameters.type]),
    ).toEqual([
      ['chercher_dossier', 'OBJECT'],
      ['supprimer_dossier', 'OBJECT'],
      ['cloturer_dossier', 'OBJECT'],
    ]);
    expect(gemini.result.changes).toContainEqual(
      expect.objectContaining({ tool: 'chercher_dossier', kind: 'dropped', keyword: 'additionalProperties' }),
    );
  }, 90_000); // five CLI processes, one per adapter; slow when the suite shares two cores

  it('default output: the tools on stdout (JSON), the changes on stderr', async () => {
    const { code, stdout, stderr } = await runBin(['convert', 'test/fixtures/typed-catalogue.ts', '-p', 'openai']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'convert_currency' }) }),
    ]);
    expect(stderr).toContain('→ openai: 1 tool(s), 1 change(s), 0 refused');
    expect(stderr).toContain('convert.currency (root)  renamed: "convert.currency" → "convert_currency"');
  });

  it('leaves out a tool the provider cannot receive, says why, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-convert-'));
    const file = join(dir, 'tools.json');
    await writeFile(
      file,
      JSON.stringify([
        { name: 'ok', description: 'Fine.', input_schema: { type: 'object', properties: { a: { type: 'string' } } } },
        {
          name: 'free',
          description: 'Any keys.',
          input_schema: { type: 'object', additionalProperties: { type: 'string' } },
        },
        { name: 'list', description: 'Not an object.', input_schema: { type: 'array', items: { type: 'string' } } },
      ]),
    );
    const { code, result } = await convert(file, 'gemini');
    expect(code).toBe(1);
    // A root that is not an object: createCatalogue refuses it, so convert gives core's reason (as lint does).
    expect(result.refused).toEqual([
      { tool: 'list', message: expect.stringContaining('must describe an object at its root') },
    ]);
    const [declarations] = result.tools as { functionDeclarations: JsonObject[] }[];
    expect(declarations?.functionDeclarations.map((declaration) => declaration['name'])).toEqual(['ok', 'free']);
    // A map root has no `parameters` shape, so it is declared with parametersJsonSchema (a JSON Schema map).
    expect(declarations?.functionDeclarations[1]?.['parametersJsonSchema']).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(result.changes).toContainEqual(expect.objectContaining({ tool: 'free', kind: 'json-schema-parameters' }));
  });

  it.each([
    { label: 'no --provider', args: ['convert', DEMO], expected: 'no --provider given' },
    {
      label: 'unknown provider',
      args: ['convert', DEMO, '--provider', 'mistral'],
      expected: '--provider must be one of anthropic, openai, openai-strict, openai-responses, gemini',
    },
    { label: 'no file', args: ['convert', '--provider', 'gemini'], expected: 'no catalogue file given' },
    {
      label: 'missing file',
      args: ['convert', 'nope.json', '--provider', 'gemini'],
      expected: 'nope.json does not exist',
    },
    {
      label: 'not a catalogue',
      args: ['convert', 'test/fixtures/not-a-catalogue.json', '--provider', 'gemini'],
      expected: 'expected an array of tools',
    },
  ])('$label exits 2', async ({ args, expected }) => {
    const { code, stderr } = await runBin(args);
    expect(stderr).toContain(expected);
    expect(code).toBe(2);
  });
});
