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

  it('omits parameters for tools without properties, keeps them otherwise', () => {
    const tools: readonly ToolDeclaration[] = [
      { name: 'a', description: '', inputSchema: { type: 'object' } },
      { name: 'b', description: 'B', inputSchema: { type: 'object', properties: {}, required: [] } },
      { name: 'c', description: 'C', inputSchema: { type: 'object', properties: { x: { type: 'integer' } } } },
    ];
    expect(createGoogleToolPreparer('gemini').declarationsOf(tools).tools).toEqual([
      {
        functionDeclarations: [
          { name: 'a' },
          { name: 'b', description: 'B' },
          { name: 'c', description: 'C', parameters: { type: 'object', properties: { x: { type: 'integer' } } } },
        ],
      },
    ]);
  });
});
