import { describe, expect, it } from 'vitest';
import { namesOutOfScope } from '../src/lint/check-out-of-scope.js';
import { findDescriptionOverlaps } from '../src/lint/description-overlap.js';
import { stemWord } from '../src/lint/stem-word.js';
import { tokenizeDescription } from '../src/lint/tokenize-description.js';
import { walkSchemaObjects } from '../src/lint/walk-schema-objects.js';
import { callChecks } from '../src/trace/call-checks.js';

describe('stemWord', () => {
  it.each([
    ['files', 'file'],
    ['filing', 'file'],
    ['filed', 'file'],
    ['running', 'run'],
    ['called', 'call'],
    ['queries', 'query'],
    ['searches', 'search'],
    ['status', 'status'],
    ['based', 'base'],
    ['opened', 'open'],
    ['quickly', 'quick'],
    ['registration', 'registrate'],
  ])('%s → %s', (word, stem) => {
    expect(stemWord(word)).toBe(stem);
  });
});

describe('tokenizeDescription', () => {
  it('keeps stemmed content words only', () => {
    expect(tokenizeDescription('Use this tool to get the weather forecasts for 3 cities.')).toEqual([
      'get',
      'weather',
      'forecast',
      'city',
    ]);
  });
});

describe('findDescriptionOverlaps', () => {
  const tools = [
    { name: 'a', description: 'Delete a customer record from the billing database.' },
    { name: 'b', description: 'Remove customer records from the billing database permanently.' },
    { name: 'c', description: 'Send an invoice email to a customer.' },
  ];

  it('finds the pair that shares its specific terms, not the one that shares a common word', () => {
    const overlaps = findDescriptionOverlaps(tools, 0.3);
    expect(overlaps.map((overlap) => [overlap.first, overlap.second])).toEqual([['a', 'b']]);
    expect(overlaps[0]?.sharedTerms).toEqual(expect.arrayContaining(['bill', 'database', 'record']));
  });

  it('is symmetric in the score and respects the threshold', () => {
    const [pair] = findDescriptionOverlaps(tools, 0.3);
    const [reversed] = findDescriptionOverlaps(
      [tools[1] ?? tools[0], tools[0], tools[2]].filter((tool) => tool !== undefined),
      0.3,
    );
    expect(reversed?.score).toBe(pair?.score);
    expect(findDescriptionOverlaps(tools, (pair?.score ?? 0) + 0.01)).toEqual([]);
  });

  it('never pairs on a single shared term', () => {
    expect(
      findDescriptionOverlaps(
        [
          { name: 'x', description: 'weather' },
          { name: 'y', description: 'weather' },
        ],
        0.1,
      ),
    ).toEqual([]);
  });
});

describe('namesOutOfScope', () => {
  it.each([
    ['Do not use for refunds.', true],
    ['Only for open cases.', true],
    ['Use list_files instead for folders.', true],
    ["N'utilisez pas pour supprimer.", true],
    ['Get the weather.', false],
  ])('%j → %s', (text, expected) => {
    expect(namesOutOfScope(text)).toBe(expected);
  });
});

describe('walkSchemaObjects', () => {
  it('visits nested subschemas with escaped JSON pointers', () => {
    const paths: string[] = [];
    walkSchemaObjects(
      {
        type: 'object',
        properties: {
          'a/b': { type: 'object', properties: { c: { type: 'string' } } },
          list: { type: 'array', items: { anyOf: [{ type: 'object' }] } },
        },
        $defs: { node: { type: 'object' } },
      },
      (_node, path) => paths.push(path),
    );
    expect(paths).toEqual([
      '',
      '/properties/a~1b',
      '/properties/a~1b/properties/c',
      '/properties/list',
      '/properties/list/items',
      '/properties/list/items/anyOf/0',
      '/$defs/node',
    ]);
  });
});

describe('callChecks', () => {
  it('marks the failing check and skips the later ones', () => {
    expect(callChecks({ kind: 'refused', reason: 'missing_right', message: '' }, true)).toEqual({
      exists: 'pass',
      schema: 'pass',
      right: 'fail',
      confirmation: 'skipped',
    });
    expect(callChecks({ kind: 'awaiting_confirmation', inputDigest: 'x' }, true).confirmation).toBe('pending');
    expect(callChecks({ kind: 'executed', isError: false }, false).confirmation).toBe('n/a');
    expect(callChecks({ kind: 'refused', reason: 'unknown_tool', message: '' }, undefined).exists).toBe('fail');
  });
});
