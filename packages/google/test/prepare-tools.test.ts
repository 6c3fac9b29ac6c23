import type { ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { createGoogleToolPreparer } from '../src/google-prepare-tools.js';
import { CASE_FILE_TOOLS } from './support/case-files.js';

describe('tool preparation', () => {
  it('translates a catalogue once per array identity', () => {
    const preparer = createGoogleToolPreparer('gemini');
    const first = preparer.declarationsOf(CASE_FILE_TOOLS);
    expect(preparer.declarationsOf(CASE_FILE_TOOLS)).toBe(first);
    // Same content, new array: a new translation (the cache is keyed by identity, not by value).
    expect(preparer.declarationsOf([...CASE_FILE_TOOLS])).not.toBe(first);
    expect(preparer.prepare(CASE_FILE_TOOLS, 'auto').tools).toBe(first.tools);
  });

  it('omits parameters where no declared input is lost; tools that declare open keys go as JSON Schema', () => {
    const tools: readonly ToolDeclaration[] = [
      { name: 'a', description: '', inputSchema: { type: 'object' } },
      { name: 'b', description: 'B', inputSchema: { type: 'object', properties: {}, required: [] } },
      { name: 'c', description: 'C', inputSchema: { type: 'object', properties: { x: { type: 'integer' } } } },
      { name: 'd', description: 'D', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
      { name: 'e', description: 'E', inputSchema: { type: 'object', properties: {}, additionalProperties: true } },
    ];
    const open = { type: 'object', properties: {} };
    for (const target of ['gemini', 'gemini-json-schema'] as const) {
      const c =
        target === 'gemini'
          ? { parameters: { type: 'object', properties: { x: { type: 'integer' } } } }
          : { parametersJsonSchema: { type: 'object', properties: { x: { type: 'integer' } } } };
      // `a` and `b` only omit additionalProperties: keys nobody declared are no input (keepUndeclaredKeys
      // counts them, and then only parametersJsonSchema can carry them).
      for (const keepUndeclaredKeys of [false, true]) {
        const implicit = keepUndeclaredKeys || target === 'gemini-json-schema' ? { parametersJsonSchema: open } : {};
        expect(createGoogleToolPreparer(target, keepUndeclaredKeys).declarationsOf(tools).tools).toEqual([
          {
            functionDeclarations: [
              { name: 'a', ...implicit },
              { name: 'b', description: 'B', ...implicit },
              { name: 'c', description: 'C', ...c },
              { name: 'd', description: 'D' },
              { name: 'e', description: 'E', parametersJsonSchema: open },
            ],
          },
        ]);
      }
    }
  });
});
