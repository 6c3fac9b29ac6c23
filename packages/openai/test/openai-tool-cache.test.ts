import type { ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { cacheByToolsArray } from '../src/openai-shared-tool-set.js';
import { CASE_FILE_TOOLS } from './support/scenario.js';

describe('prepared tools cache', () => {
  it('translates a catalogue array once, however many turns use it, and again for a new array', () => {
    let builds = 0;
    const prepare = cacheByToolsArray((tools: readonly ToolDeclaration[]) => {
      builds += 1;
      return tools.map((tool) => tool.name);
    });
    const first = prepare(CASE_FILE_TOOLS);
    expect(prepare(CASE_FILE_TOOLS)).toBe(first);
    expect(prepare(CASE_FILE_TOOLS)).toBe(first);
    expect(builds).toBe(1);
    const copy = [...CASE_FILE_TOOLS];
    expect(prepare(copy)).not.toBe(first);
    expect(builds).toBe(2);
  });
});
