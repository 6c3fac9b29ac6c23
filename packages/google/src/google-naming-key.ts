import type { ToolNameMap } from '@toolcircuit/schema';

/**
 * A string that identifies what a name map does to ANY name, so that a converted history message can be
 * reused on it alone instead of mapping the names of every call in the history again on every step.
 *
 * A `ToolNameMap` keeps valid names, renames the others, and passes unknown names through unchanged, so
 * its renamed pairs are the whole mapping: two maps with the same key give every name the same provider
 * name. JSON text, because a tool name may contain any character (a separator could be ambiguous), and
 * sorted, because the mapping does not depend on the catalogue's order.
 */
export function namingKeyOf(nameMap: ToolNameMap): string {
  const renamed: [string, string][] = [];
  for (const [original, provider] of nameMap.names) if (provider !== original) renamed.push([original, provider]);
  renamed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(renamed);
}
