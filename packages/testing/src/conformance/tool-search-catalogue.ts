import { type Catalogue, createCatalogue, defineTool, everySession } from '@toolcircuit/core';

/** The deferred tools of {@link createToolSearchCatalogue}, in registration order. */
export const TOOL_SEARCH_DEFERRED_TOOLS = ['get_weather_forecast', 'pay_person', 'list_files'] as const;

/**
 * A small catalogue for adapters' tool-search tests: `current_time` shown (`defer: false`), the tools of
 * {@link TOOL_SEARCH_DEFERRED_TOOLS} deferred, each taking `{ city?: string }` and answering `<name> ran`,
 * open to every session. Shown first: `current_time`, then the search tool.
 */
export function createToolSearchCatalogue(): Catalogue {
  const tool = (name: string, description: string, defer?: boolean) =>
    defineTool({
      name,
      description,
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      right: everySession,
      ...(defer === undefined ? {} : { defer }),
      run: () => `${name} ran`,
    });
  return createCatalogue(
    [
      tool('current_time', 'The current time.', false),
      tool('get_weather_forecast', 'Weather forecast for a city.'),
      tool('pay_person', 'Pays a person.'),
      tool('list_files', 'Lists files.'),
    ],
    { defer: true },
  );
}
