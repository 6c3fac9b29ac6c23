import type { DeferredTools, ToolDeclaration } from '../messages/model.js';

/** Distinct subsets kept per list; past this the oldest are dropped (they are only a cache). */
const MAX_SUBSETS = 64;

const subsets = new WeakMap<readonly ToolDeclaration[], Map<string, readonly ToolDeclaration[]>>();
const deferredSubsets = new WeakMap<DeferredTools, Map<string, DeferredTools>>();

/**
 * The declarations of `all` (what the run shows at this point: the catalogue's tools, then the deferred ones
 * a search loaded) that are in `active`, in that order, as one frozen array per distinct set: a step that
 * offers the same tools as an earlier one passes the very same array, so the adapters' translations (cached
 * by the array's identity) and request texts are reused, not remade.
 */
export function activeDeclarations(
  all: readonly ToolDeclaration[],
  active: ReadonlySet<string>,
): readonly ToolDeclaration[] {
  const chosen = all.filter((declaration) => active.has(declaration.name));
  if (chosen.length === all.length) return all;
  return cached(subsets, all, chosen.map((declaration) => declaration.name).join('\u0000'), () =>
    Object.freeze(chosen),
  );
}

/**
 * The deferred tools not loaded yet that `active` allows, for an adapter's native search: the same object
 * for the same set, so that its cache (keyed by this object) holds as long as the step's tools do.
 */
export function activeDeferredTools(deferred: DeferredTools, active: ReadonlySet<string>): DeferredTools {
  const chosen = deferred.tools.filter((declaration) => active.has(declaration.name));
  if (chosen.length === deferred.tools.length) return deferred;
  return cached(deferredSubsets, deferred, chosen.map((declaration) => declaration.name).join('\u0000'), () =>
    Object.freeze({ searchTool: deferred.searchTool, tools: Object.freeze(chosen) }),
  );
}

function cached<K extends object, V>(caches: WeakMap<K, Map<string, V>>, owner: K, key: string, make: () => V): V {
  let cache = caches.get(owner);
  if (cache === undefined) {
    cache = new Map();
    caches.set(owner, cache);
  }
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (cache.size >= MAX_SUBSETS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  const made = make();
  cache.set(key, made);
  return made;
}
