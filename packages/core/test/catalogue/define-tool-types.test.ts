import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, everySession, type JsonObject, type ToolDefinition } from '../../src/index.js';

describe('defineTool input inference', () => {
  it('infers the input from a JSON Schema literal (no `as const` needed)', () => {
    const tool = defineTool({
      name: 'chercher_dossier',
      description: 'Look up a case file by its exact number.',
      inputSchema: {
        type: 'object',
        properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' }, detail: { type: 'boolean' } },
        required: ['numero'],
        additionalProperties: false,
      },
      right: 'cases:read',
      run: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ numero: string; detail?: boolean }>();
        return input.numero;
      },
    });
    expectTypeOf(tool).toEqualTypeOf<ToolDefinition<{ numero: string; detail?: boolean }>>();
  });

  it('infers the input from an `as const` schema declared elsewhere', () => {
    const schema = {
      type: 'object',
      properties: { amount: { type: 'integer' }, currency: { enum: ['EUR', 'USD'] } },
      required: ['amount', 'currency'],
      additionalProperties: false,
    } as const;
    defineTool({
      name: 'pay',
      description: 'Pay.',
      inputSchema: schema,
      right: 'payments:write',
      irreversible: true,
      run: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ amount: number; currency: 'EUR' | 'USD' }>();
        return null;
      },
    });
  });

  it('infers the output type of a Zod 4 (Standard Schema) schema', () => {
    defineTool({
      name: 'greet',
      description: 'Greet someone.',
      inputSchema: z.object({ name: z.string(), times: z.number().int().default(1) }),
      right: everySession,
      run: (input) => {
        // The output type: `times` has a default, so it is always present after validation.
        expectTypeOf(input).toEqualTypeOf<{ name: string; times: number }>();
        return `hello ${input.name}`;
      },
    });
  });

  it('gives a record for schemas only typed as wide JSON objects (loaded from files)', () => {
    const loaded: JsonObject = { type: 'object' };
    defineTool({
      name: 'from_file',
      description: 'A tool whose schema came from a file.',
      inputSchema: loaded,
      right: 'files',
      run: (input) => {
        expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>();
        return undefined;
      },
    });
  });

  it('requires a right: leaving it out is a type error', () => {
    // @ts-expect-error — `right` is mandatory; rights are deny-by-default
    defineTool({
      name: 'no_right',
      description: 'x',
      inputSchema: { type: 'object' },
      run: () => 'x',
    });
  });
});
