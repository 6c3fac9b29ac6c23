import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolNameMap, SCHEMA_TARGETS, TOOL_NAME_RULES, ToolNameError } from '../src/index.js';

describe('ToolNameMap.key', () => {
  it('is equal for two maps only when they give every name the same provider name (property)', () => {
    const name = fc.oneof(fc.constantFrom('list', '9lookup', '_9lookup', 'math.factorial', 'read file'), fc.string());
    const catalogue = fc.uniqueArray(
      name.filter((value) => value !== ''),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(catalogue, catalogue, fc.constantFrom(...SCHEMA_TARGETS), (first, second, target) => {
        const a = createToolNameMap(first, target);
        const b = createToolNameMap(second, target);
        const everyName = [...first, ...second, 'unknown to both'];
        const same = everyName.every((each) => a.toProvider(each) === b.toProvider(each));
        expect(a.key === b.key).toBe(same);
      }),
    );
  });

  it('does not depend on the catalogue order', () => {
    expect(createToolNameMap(['9lookup', 'list'], 'gemini').key).toBe(
      createToolNameMap(['list', '9lookup'], 'gemini').key,
    );
  });
});

describe('createToolNameMap', () => {
  const names = ['math.factorial', 'Coffee Shop Locator', '3d_render', 'x'.repeat(70), 'plain_name', 'read-file'];

  it('keeps valid names and maps each rejected one to a valid name per provider, and back', () => {
    for (const target of SCHEMA_TARGETS) {
      const map = createToolNameMap(names, target);
      for (const name of names) {
        const mapped = map.toProvider(name);
        expect(mapped).toMatch(TOOL_NAME_RULES[target].pattern);
        expect(map.fromProvider(mapped)).toBe(name);
      }
      expect(map.toProvider('plain_name')).toBe('plain_name');
      expect(map.toProvider('read-file')).toBe('read-file');
      expect(map.changes.every((change) => change.kind === 'renamed')).toBe(true);
    }
  });

  it('follows each provider: dots are fine for Gemini, not for OpenAI; Gemini needs a leading letter', () => {
    expect(createToolNameMap(names, 'openai').toProvider('math.factorial')).toBe('math_factorial');
    expect(createToolNameMap(names, 'gemini').toProvider('math.factorial')).toBe('math.factorial');
    expect(createToolNameMap(names, 'openai').toProvider('Coffee Shop Locator')).toBe('Coffee_Shop_Locator');
    expect(createToolNameMap(names, 'openai').toProvider('3d_render')).toBe('3d_render');
    expect(createToolNameMap(names, 'gemini').toProvider('3d_render')).toBe('_3d_render');
    // 70 characters: too long for OpenAI and Gemini (64), fine for Anthropic (128).
    expect(createToolNameMap(names, 'openai').toProvider('x'.repeat(70))).toHaveLength(64);
    expect(createToolNameMap(names, 'anthropic').toProvider('x'.repeat(70))).toBe('x'.repeat(70));
  });

  it('never collides with another tool, whatever the order, and the same names always map the same way', () => {
    const colliding = ['a.b', 'a_b', 'a b', 'a/b'];
    const forward = createToolNameMap(colliding, 'openai');
    const backward = createToolNameMap([...colliding].reverse(), 'openai');
    const provided = colliding.map((name) => forward.toProvider(name));
    expect(new Set(provided).size).toBe(colliding.length);
    expect(forward.toProvider('a_b')).toBe('a_b');
    for (const name of colliding) {
      expect(backward.toProvider(name)).toBe(forward.toProvider(name));
      expect(forward.fromProvider(forward.toProvider(name))).toBe(name);
    }
    expect(provided.filter((name) => /^a_b_[0-9a-f]{8}$/.test(name))).toHaveLength(3);
  });

  it('passes unknown names through (a model inventing a tool is the executor’s to report)', () => {
    const map = createToolNameMap(['math.factorial'], 'openai');
    expect(map.fromProvider('no_such_tool')).toBe('no_such_tool');
    expect(map.fromProvider('math.factorial')).toBe('math.factorial');
  });

  it('refuses duplicate and empty names with a configuration error', () => {
    expect(() => createToolNameMap(['a', 'a'], 'openai')).toThrow(ToolNameError);
    const error = (() => {
      try {
        createToolNameMap(['ok', ''], 'gemini');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ kind: 'configuration', code: 'empty_tool_name' });
  });
});
