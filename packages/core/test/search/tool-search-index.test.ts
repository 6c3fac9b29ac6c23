import { describe, expect, it } from 'vitest';
import { createToolSearchIndex, type ToolDeclaration } from '../../src/index.js';
import { stemEnglish } from '../../src/search/english-stemmer.js';
import { stem, tokenize } from '../../src/search/tokenize.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}): ToolDeclaration => ({
  name,
  description,
  inputSchema: { type: 'object', properties: properties as never },
});

describe('tokenize', () => {
  it('splits snake_case, camelCase, acronyms, dots and digits, and keeps the compound name', () => {
    expect(tokenize('get_weather_forecast')).toEqual(['get', 'weather', 'forecast']);
    expect(tokenize('getHTTPResponse')).toEqual(['get', 'http', 'respons', 'gethttprespons']);
    expect(tokenize('math.factorial v2 base64')).toEqual(['math', 'factori', 'v2', 'base', 'base64']);
  });

  it('drops stop words, request chatter and bare numbers', () => {
    expect(tokenize('What is the weather in the city?')).toEqual(['weather', 'in', 'citi']);
    expect(tokenize("Hey, I'd like to know: can you please help me book 2 rooms for 2024-08-10?")).toEqual([
      'book',
      'room',
    ]);
  });

  it('meets inflections and derivations at one Porter2 stem', () => {
    expect(new Set(['calculates', 'calculated', 'calculating', 'calculate', 'calculation'].map(stem)).size).toBe(1);
    expect(stem('cities')).toBe(stem('city'));
    expect(stem('bags')).toBe(stem('bag'));
    expect(stem('connections')).toBe('connect');
    expect(stem('generously')).toBe('generous');
  });
});

describe('stemEnglish (Porter2)', () => {
  it('follows the published algorithm on its hard cases', () => {
    const cases: Record<string, string> = {
      consign: 'consign',
      consigned: 'consign',
      consignment: 'consign',
      generously: 'generous',
      communication: 'communic',
      arsenal: 'arsenal',
      skies: 'sky',
      dying: 'die',
      cries: 'cri',
      ties: 'tie',
      gaps: 'gap',
      gas: 'gas',
      kiwis: 'kiwi',
      hopping: 'hop',
      hoping: 'hope',
      luxuriating: 'luxuri',
      succeeded: 'succeed',
      news: 'news',
      geolocation: 'geoloc',
    };
    for (const [word, stemmed] of Object.entries(cases)) expect([word, stemEnglish(word)]).toEqual([word, stemmed]);
  });

  it('leaves what is not a lower-case English word as it is', () => {
    expect(stemEnglish('HTTP')).toBe('HTTP');
    expect(stemEnglish('café')).toBe('café');
    expect(stemEnglish('搜索')).toBe('搜索');
  });
});

describe('createToolSearchIndex', () => {
  const tools = [
    tool('send_email', 'Send an email message to a recipient.', { to: { type: 'string' }, subject: {} }),
    tool('getWeatherForecast', 'Weather forecast for a city over the next days.', { city: { type: 'string' } }),
    tool('convert_currency', 'Convert an amount between two currencies at the current rate.', {
      amount: { type: 'number' },
      from_currency: { type: 'string', description: 'ISO code, e.g. EUR' },
    }),
    tool('list_files', 'List the files of a directory.', { path: { type: 'string' } }),
  ];
  const index = createToolSearchIndex(tools);

  it('ranks the tool whose name, description or parameters match first', () => {
    expect(index.search('what will the weather be in Paris tomorrow', 1)[0]?.name).toBe('getWeatherForecast');
    expect(index.search('email the report to Ana', 4)[0]?.name).toBe('send_email');
    expect(index.search('how much is 20 EUR in dollars? currency', 4)[0]?.name).toBe('convert_currency');
    expect(index.search('files in my directory', 4)[0]?.name).toBe('list_files');
  });

  it('finds a tool by a parameter description only, and returns nothing for unrelated words', () => {
    expect(index.search('ISO code', 4).map((hit) => hit.name)).toEqual(['convert_currency']);
    expect(index.search('zebra xylophone', 4)).toEqual([]);
  });

  it('honours the limit, scores best first, and is deterministic', () => {
    const hits = index.search('send list convert weather', 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]?.score).toBeGreaterThanOrEqual(hits[1]?.score ?? 0);
    expect(createToolSearchIndex(tools).search('send list convert weather', 2)).toEqual(hits);
  });

  it('reads parameters at any depth of the schema', () => {
    const nested = createToolSearchIndex([
      tool('a', 'First tool.', { options: { type: 'object', properties: { timezone: { type: 'string' } } } }),
      tool('b', 'Second tool.', { rows: { type: 'array', items: { type: 'object', properties: { sku: {} } } } }),
    ]);
    expect(nested.search('timezone', 2).map((hit) => hit.name)).toEqual(['a']);
    expect(nested.search('sku', 2).map((hit) => hit.name)).toEqual(['b']);
  });
});
