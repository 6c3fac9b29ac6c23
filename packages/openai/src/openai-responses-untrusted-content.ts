import type { JsonObject, UntrustedContent } from '@toolcircuit/core';
import { untrustedContentOf } from '@toolcircuit/core/provider';

/**
 * Output items of hosted tools that put outside content into the model's context: a web search (its
 * query and sources), a file search (its results), the code interpreter (its logs and files), and a remote
 * MCP server (its answer, or its list of tools, whose descriptions the server wrote). Besides these, every
 * `*_output` item in a response is the provider's own answer to a call it ran itself (a shell in a hosted
 * container: the command's output may be anything it fetched), so it is marked too.
 */
const UNTRUSTED_ITEMS: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
]);

/**
 * The untrusted content of one Responses output item, for core's provenance (`ModelTurn.untrustedContent`),
 * standing before the `at`-th neutral part of the turn; `undefined` for an item that carries none. Marked
 * whether or not the adapter keeps the item in the turn: it was in the model's context either way.
 */
export function responsesUntrustedContent(item: JsonObject, at: number): UntrustedContent | undefined {
  const type = item['type'];
  if (typeof type !== 'string' || !(UNTRUSTED_ITEMS.has(type) || type.endsWith('_output'))) return undefined;
  const id = item['id'];
  return untrustedContentOf({
    at,
    kind: type,
    id: typeof id === 'string' ? id : `${type}-${at}`,
    value: item,
    skipKeys: OPAQUE_KEYS,
  });
}

/** Tags, ids and states: not text anyone wrote. */
const OPAQUE_KEYS: readonly string[] = ['type', 'id', 'call_id', 'status', 'container_id', 'approval_request_id'];
