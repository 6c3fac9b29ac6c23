import type { Catalogue } from '../catalogue/catalogue.js';
import type { ToolSearch } from '../catalogue/tool-search.js';
import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import type { Message, ToolCallPart } from '../messages/messages.js';
import type { DeferredTools, ToolDeclaration } from '../messages/model.js';

/**
 * The deferred tools a run has loaded so far, in the order they were loaded. The model is shown the
 * catalogue's tools, then these; the executor lets a call to a deferred tool through only once it is here.
 * Part of the loop's state: paused and interrupted runs carry its names, so a resumed run sees the same
 * tools as before.
 */
export class LoadedTools {
  readonly #search: ToolSearch;
  readonly #catalogue: Catalogue;
  readonly #names = new Set<string>();
  readonly #byName: ReadonlyMap<string, ToolDeclaration>;
  #tools: readonly ToolDeclaration[] | undefined;
  #deferred: DeferredTools | undefined;

  constructor(catalogue: Catalogue, search: ToolSearch, names: Iterable<string> = []) {
    this.#catalogue = catalogue;
    this.#search = search;
    this.#byName = new Map(search.deferred.map((declaration) => [declaration.name, declaration]));
    this.add(names);
  }

  has(name: string): boolean {
    return this.#names.has(name);
  }

  /** The names loaded so far, in load order. */
  names(): string[] {
    return [...this.#names];
  }

  /** Loads deferred tools of the catalogue; anything else is ignored. Returns how many were new. */
  add(names: Iterable<string>): number {
    let added = 0;
    for (const name of names) {
      if (this.#names.has(name) || !this.#search.isDeferred(name)) continue;
      this.#names.add(name);
      added += 1;
    }
    if (added > 0) {
      this.#tools = undefined;
      this.#deferred = undefined;
    }
    return added;
  }

  /**
   * What the model is shown: the catalogue's tools (the search tool among them), then the loaded ones. The
   * same frozen array until something new loads, so adapters keep their cached translation; new tools go
   * last, so a provider's cached prompt prefix still holds.
   */
  requestTools(): readonly ToolDeclaration[] {
    if (this.#tools !== undefined) return this.#tools;
    const loaded = [...this.#names].map((name) => this.#byName.get(name) as ToolDeclaration);
    const tools =
      loaded.length === 0 ? this.#catalogue.declarations : Object.freeze([...this.#catalogue.declarations, ...loaded]);
    this.#tools = tools;
    return tools;
  }

  /** For adapters with a native tool search: the search tool and the deferred tools not loaded yet. */
  deferredTools(): DeferredTools {
    if (this.#deferred !== undefined) return this.#deferred;
    const tools = Object.freeze(this.#search.deferred.filter((declaration) => !this.#names.has(declaration.name)));
    const deferred = Object.freeze({ searchTool: this.#search.name, tools });
    this.#deferred = deferred;
    return deferred;
  }

  /** Loads what the executed search calls of a turn found; the model sees it from the next step on. */
  loadFound(calls: readonly ToolCallPart[], outcomes: readonly (ExecutionOutcome | undefined)[]): void {
    for (const [index, call] of calls.entries()) {
      const outcome = outcomes[index];
      if (call.name !== this.#search.name || outcome?.verdict.kind !== 'executed') continue;
      this.add(this.#search.loadedBy(outcome.result));
    }
  }
}

/**
 * The loaded tools a run starts with: the names a paused or interrupted run carried, or else those the
 * search results already in the conversation loaded (a conversation continued with `runLoop`). Absent when
 * the catalogue defers nothing.
 */
export function loadedToolsOf(
  catalogue: Catalogue,
  messages: readonly Message[],
  names?: readonly string[],
): LoadedTools | undefined {
  const search = catalogue.toolSearch;
  if (search === undefined) return undefined;
  if (names !== undefined) return new LoadedTools(catalogue, search, names);
  const found: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const result of message.content) if (result.name === search.name) found.push(...search.loadedBy(result));
  }
  return new LoadedTools(catalogue, search, found);
}
