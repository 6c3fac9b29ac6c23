// createCatalogue over BFCL's real tool list (fixtures/catalogues/bfcl.json, `type: "dict"` roots, `float`,
// `any`, Java type names…): refused without a normaliser, loaded with normalizeToolSchema (the rewrite lint
// and convert apply), and the loaded tools validate inputs by what their schema meant.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnyToolDefinition, createCatalogue, everySession, type JsonObject } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { normalizeToolSchema } from '../src/index.js';
import { CATALOGUE_DIR } from './support/catalogues.js';

interface CorpusTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonObject;
}

const seen = new Set<string>();
const tools: AnyToolDefinition[] = (JSON.parse(readFileSync(join(CATALOGUE_DIR, 'bfcl.json'), 'utf8')) as CorpusTool[])
  .filter((tool) => !seen.has(tool.name) && seen.add(tool.name))
  .map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.input_schema,
    right: everySession,
    irreversible: false,
    run: () => 'ok',
  }));

describe('normalizeToolSchema as createCatalogue’s normalizeSchema', () => {
  it('loads the BFCL tools a plain catalogue refuses', () => {
    const plain = createCatalogue(tools, { mode: 'lenient' });
    const normalised = createCatalogue(tools, { mode: 'lenient', normalizeSchema: normalizeToolSchema });
    expect(tools.length).toBeGreaterThan(650);
    expect(plain.refused.length).toBeGreaterThan(tools.length * 0.9);
    expect(normalised.refused.map((tool) => `${tool.name}: ${tool.error.message}`)).toEqual([]);
    expect(normalised.names).toHaveLength(tools.length);
  });

  it('validates inputs by the normalised schema', async () => {
    const catalogue = createCatalogue(tools, { normalizeSchema: normalizeToolSchema });
    const area = catalogue.get('calculate_triangle_area')?.declaration.inputSchema;
    expect(area).toMatchObject({ type: 'object', properties: { base: { type: 'integer' } } });
    expect((await catalogue.validate('calculate_triangle_area', { base: 3, height: 4 })).ok).toBe(true);
    expect((await catalogue.validate('calculate_triangle_area', { base: 'three', height: 4 })).ok).toBe(false);
  });
});
