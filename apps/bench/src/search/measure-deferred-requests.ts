import {
  type Catalogue,
  createSession,
  InMemoryJournal,
  type JournalEntry,
  type LoopResult,
  runLoop,
} from '@toolcircuit/core';
import { type ConformanceTurn, conformanceWireOf, type ReceivedRequest, startReplayServer } from '@toolcircuit/testing';
import { SDK_BACKENDS, type SdkBackend } from '../wire/sdk-backends.js';
import { wireCassette } from '../wire/wire-cassette.js';
import { corpusCatalogue } from './deferred-catalogue.js';

/** What the scripted model searches for, the tool that search must find, and one it must not load. */
export const SEARCH_QUERY = 'create a new issue in a GitHub repository';
export const FOUND_TOOL = 'create_issue';
export const NOT_LOADED_TOOL = 'API-post-page';

/**
 * Synthetic turns (made up here, not recorded traffic): search, then call the found tool and one the search
 * did not load, then answer. With every tool shown, the same task without the search.
 */
const DEFERRED_TURNS: readonly ConformanceTurn[] = [
  { calls: [{ name: 'tool_search', arguments: { query: SEARCH_QUERY } }] },
  {
    calls: [
      { name: FOUND_TOOL, arguments: { owner: 'octo-org', repo: 'demo', title: 'Search loads tools' } },
      { name: NOT_LOADED_TOOL, arguments: { parent: { page_id: 'p1' } } },
    ],
  },
  { text: 'Opened the issue; the page tool was not loaded.', calls: [] },
];
const ALL_TOOLS_TURNS: readonly ConformanceTurn[] = [
  {
    calls: [
      { name: FOUND_TOOL, arguments: { owner: 'octo-org', repo: 'demo', title: 'Search loads tools' } },
      { name: NOT_LOADED_TOOL, arguments: { parent: { page_id: 'p1' } } },
    ],
  },
  { text: 'Opened the issue.', calls: [] },
];

export interface DeferredRun {
  readonly backend: string;
  readonly mode: 'deferred' | 'all tools';
  readonly result: LoopResult;
  readonly journal: readonly JournalEntry[];
  readonly requests: readonly ReceivedRequest[];
  /** Tool names each request declared, as the wire carries them. */
  readonly declared: readonly (readonly string[])[];
}

/** The task over one backend, with the 600 tools deferred or all shown; the replay server keeps each request. */
export async function playDeferredTask(
  backend: SdkBackend,
  mode: DeferredRun['mode'],
  catalogue: Catalogue = corpusCatalogue({ defer: mode === 'deferred' }),
): Promise<DeferredRun> {
  const wire = conformanceWireOf(backend.protocol);
  const turns = mode === 'deferred' ? DEFERRED_TURNS : ALL_TOOLS_TURNS;
  const scenarioId = `tool_search_${mode === 'deferred' ? 'deferred' : 'all'}`;
  const cassette = wireCassette(backend.protocol, scenarioId, turns, 'Tool-search task of apps/bench/src/search');
  const server = await startReplayServer(cassette);
  try {
    const journal = new InMemoryJournal();
    const result = await runLoop({
      model: backend.createModel(server.url, wire.model),
      catalogue,
      session: createSession({ id: 'bench', humanId: 'bench', rights: [] }),
      messages: [{ role: 'user', content: 'Open an issue "Search loads tools" in octo-org/demo.' }],
      journal,
      maxTurns: turns.length,
    });
    server.assertDone();
    const requests = [...server.received];
    return {
      backend: backend.label,
      mode,
      result,
      journal: journal.entries,
      requests,
      declared: requests.map((request) => wire.declaredToolNames(request.body)),
    };
  } finally {
    await server.close();
  }
}

export interface RequestBytesRow {
  readonly backend: string;
  /** Body bytes of each request of the deferred run (search, call, answer). */
  readonly deferred: readonly number[];
  /** Body bytes of each request of the run that shows all tools (call, answer). */
  readonly allTools: readonly number[];
  /** Tools declared on each request of the deferred run. */
  readonly deferredTools: readonly number[];
  readonly allToolsTools: readonly number[];
}

/** Request body bytes per step, deferred vs all tools, for every backend. */
export async function measureDeferredRequestBytes(): Promise<RequestBytesRow[]> {
  const deferredCatalogue = corpusCatalogue({ defer: true });
  const allCatalogue = corpusCatalogue({ defer: false });
  const rows: RequestBytesRow[] = [];
  for (const backend of SDK_BACKENDS) {
    const deferred = await playDeferredTask(backend, 'deferred', deferredCatalogue);
    const all = await playDeferredTask(backend, 'all tools', allCatalogue);
    rows.push({
      backend: backend.label,
      deferred: deferred.requests.map((request) => request.bodyBytes),
      allTools: all.requests.map((request) => request.bodyBytes),
      deferredTools: deferred.declared.map((names) => names.length),
      allToolsTools: all.declared.map((names) => names.length),
    });
  }
  return rows;
}
