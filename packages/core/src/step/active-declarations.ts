import type { Catalogue } from '../catalogue/catalogue.js';
import type { ToolDeclaration } from '../messages/model.js';

/** Distinct subsets kept per catalogue; past this the oldest are dropped (they are only a cache). */
const MAX_SUBSETS = 64;

const subsets = new WeakMap<readonly ToolDeclaration[], Map<string, readonly ToolDeclaration[]>>();

/**
 * The declarations of `active` (a set of catalogue names), in catalogue order, as one frozen array per
 * distinct set: a step that offers the same tools as an earlier one passes the very same array, so the
 * adapters' translations (cached by the array's identity) and request texts are reused, not remade.
 */
export function activeDeclarations(catalogue: Catalogue, active: ReadonlySet<string>): readonly ToolDeclaration[] {
  const all = catalogue.declarations;
  if (active.size === all.length) return all;
  const chosen = all.filter((declaration) => active.has(declaration.name));
  const key = chosen.map((declaration) => declaration.name).join('\u0000');
  let cache = subsets.get(all);
  if (cache === undefined) {
    cache = new Map();
    subsets.set(all, cache);
  }
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  if (cache.size >= MAX_SUBSETS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  const sealed = Object.freeze(chosen);
  cache.set(key, sealed);
  return sealed;
}
