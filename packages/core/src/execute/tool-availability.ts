import type { Catalogue } from '../catalogue/catalogue.js';
import type { ExecutionContext } from './execution-context.js';

/**
 * Why a catalogue tool may not be called at this step, or `undefined` when it may. Two things decide what a
 * step offers: deferral (a deferred tool is offered once a search loaded it) and the step's plan (its
 * active tools). `tool_not_loaded` only when searching would help: the plan allows both the tool and the
 * search; a tool the plan leaves out is `inactive_tool`, loaded or not.
 */
export function unavailableReason(
  name: string,
  context: Pick<ExecutionContext, 'catalogue' | 'activeTools' | 'loadedTools'>,
): 'tool_not_loaded' | 'inactive_tool' | undefined {
  const { activeTools: active, loadedTools: loaded } = context;
  const search = context.catalogue.toolSearch;
  if (search !== undefined && loaded !== undefined && !loaded.has(name) && search.isDeferred(name)) {
    if (active === undefined || (active.has(name) && active.has(search.name))) return 'tool_not_loaded';
    return 'inactive_tool';
  }
  if (active !== undefined && !active.has(name)) return 'inactive_tool';
  return undefined;
}

/** The names of the tools the model may call at this step: the step's declarations, else the catalogue's. */
export function offeredNames(
  context: Pick<ExecutionContext, 'catalogue' | 'activeTools' | 'tools'>,
): readonly string[] {
  const declarations = context.tools ?? context.catalogue.declarations;
  const names = declarations.map((declaration) => declaration.name);
  const active = context.activeTools;
  return context.tools !== undefined || active === undefined ? names : names.filter((name) => active.has(name));
}

/** The tool search's name when this step offers it (to point the model at it), else `undefined`. */
export function offeredSearch(catalogue: Catalogue, offered: readonly string[]): string | undefined {
  const search = catalogue.toolSearch;
  return search !== undefined && offered.includes(search.name) ? search.name : undefined;
}
