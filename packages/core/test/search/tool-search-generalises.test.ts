// What makes the search find what people mean on catalogues it was never tuned on: compounds met from
// either side, bare numbers ignored, enum values and aliases indexed, and scoping by namespace.
import { describe, expect, it } from 'vitest';
import { createToolSearchIndex, type SearchableTool } from '../../src/index.js';

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  extra: Partial<SearchableTool> = {},
): SearchableTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: properties as never },
  ...extra,
});

const names = (hits: readonly { name: string }[]) => hits.map((hit) => hit.name);

describe('tool search that generalises', () => {
  it('finds a compound word by its part, and a part by its compound', () => {
    const index = createToolSearchIndex([
      tool('ip_geolocation', 'Looks up where an IP address is.'),
      tool('geo_fence', 'Creates a fence around an area.'),
      tool('store_weather', 'Weather at the location of a store.'),
      tool('elasticsearch_query', 'Runs a query DSL request against a cluster.'),
    ]);
    // "geolocation" = "geo" + "location", both words of this catalogue: a request that says "location" finds it.
    expect(names(index.search('location', 4))).toContain('ip_geolocation');
    // No tool says "elastic": the word is matched to the one it begins.
    expect(names(index.search('elastic cluster', 1))).toEqual(['elasticsearch_query']);
    // And the other way round: a request's compound split into the catalogue's words.
    expect(names(index.search('geofence', 1))).toEqual(['geo_fence']);
  });

  it('ignores bare numbers, which name no tool', () => {
    const index = createToolSearchIndex([
      tool('book_room', 'Books hotel rooms.'),
      tool('http_status', 'Explains HTTP status 404 and 500.', { code: { type: 'integer', description: 'e.g. 404' } }),
    ]);
    expect(names(index.search('book 404 rooms', 2))).toEqual(['book_room']);
    expect(index.search('404 500', 2)).toEqual([]);
  });

  it('indexes enum values, and aliases an application or a server supplies', () => {
    const index = createToolSearchIndex([
      tool('send_sms', 'Sends an SMS to a phone number.', {}, { aliases: ['text message', 'texting'] }),
      tool('send_email', 'Sends an email.'),
      tool('convert_units', 'Converts between units.', { unit: { type: 'string', enum: ['fahrenheit', 'celsius'] } }),
    ]);
    expect(names(index.search('text my mother that I am late', 1))).toEqual(['send_sms']);
    expect(names(index.search('celsius', 1))).toEqual(['convert_units']);
  });

  it('restricts a search to a namespace, and lists the namespaces it knows', () => {
    const index = createToolSearchIndex([
      tool('create_issue', 'Creates an issue in a repository.', {}, { namespace: 'github' }),
      tool('create_ticket', 'Creates an issue in a project.', {}, { namespace: 'jira' }),
      tool('list_files', 'Lists files.'),
    ]);
    expect(index.namespaces).toEqual(['github', 'jira']);
    expect(names(index.search('create issue', 5, { namespace: 'jira' }))).toEqual(['create_ticket']);
    expect(names(index.search('create issue', 5, { namespace: 'GitHub' }))).toEqual(['create_issue']);
    expect(index.search('create issue', 5, { namespace: 'gitlab' })).toEqual([]);
    expect(names(index.search('create issue', 5))).toEqual(['create_issue', 'create_ticket']);
  });

  it('boosts the namespace a query names when a tuning asks for it', async () => {
    const { DEFAULT_TOOL_SEARCH_TUNING } = await import('../../src/index.js');
    const tools = [
      tool('search_code', 'Searches code.', {}, { namespace: 'gitlab' }),
      tool('search_code_github', 'Searches code in repositories.', {}, { namespace: 'github' }),
    ];
    const plain = createToolSearchIndex(tools);
    const boosted = createToolSearchIndex(tools, { ...DEFAULT_TOOL_SEARCH_TUNING, namespaceBoost: 3 });
    const query = 'search code on gitlab repositories';
    expect(names(plain.search(query, 1))).toEqual(['search_code_github']);
    expect(names(boosted.search(query, 1))).toEqual(['search_code']);
  });
});
