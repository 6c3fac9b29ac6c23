import type { JsonValue } from '../json/json.js';
import { leafText } from '../json/leaf-text.js';

/**
 * Content the provider itself put into the model's context while it was answering, and that neither the
 * application nor the user wrote: a hosted tool's result (a web search or fetch, a code execution's output,
 * a file search, a hosted MCP server's answer or tool list), grounding or URL-context data. The model read
 * it before the rest of its answer, so the calls it makes *after* it in the same response were made with it
 * in view, and provenance judges them with it (unlike a tool result of ours, which arrives only after the
 * turn's calls were made).
 *
 * This is the seam between adapters and core's provenance, and the only thing core reads of a provider's
 * own items: an adapter lists one entry per such item in `ModelTurn.untrustedContent` (the loop copies the
 * list onto the turn's `AssistantMessage`, where a later run that starts from the conversation finds it).
 * Core never looks inside provider metadata. When adding a new kind of provider item (opaque parts, hosted
 * MCP items, citations…), mark it here if the provider filled it with content from outside; when in doubt,
 * mark it: an unneeded mark costs a confirmation, a missing one lets an injected call run unasked.
 * {@link untrustedContentOf} builds an entry from the item's JSON.
 */
export interface UntrustedContent {
  /**
   * Where it stood in the turn: the number of the turn's neutral content parts (`ModelTurn.content`) before
   * it. Calls at this index or later were made after it. `0` when the provider does not say where
   * (grounding metadata, for instance): every call of the turn is then judged with it.
   */
  readonly at: number;
  /** What produced it, as the provider names the item (`web_search_tool_result`, `web_search_call`…). */
  readonly kind: string;
  /** The provider's id of the item (or of the hosted call it answers), shown to the human as its source. */
  readonly id: string;
  /**
   * The text in which a later call's argument values are looked for (titles, URLs, snippets, page text,
   * program output…): what the human is told was copied from it. Opaque payloads (encrypted content,
   * base64 files) are left out.
   */
  readonly text: string;
}

/** What {@link untrustedContentOf} is given: the item's place, kind and id, and its JSON. */
export interface UntrustedItem {
  readonly at: number;
  readonly kind: string;
  readonly id: string;
  /** The item as the provider sent it (decoded JSON). */
  readonly value: JsonValue;
  /** Keys whose values are not text anyone reads (`type`, `encrypted_content`, base64 `data`…): skipped. */
  readonly skipKeys?: readonly string[];
}

/** An {@link UntrustedContent} entry for a provider item: its string and number leaves, one per line. */
export function untrustedContentOf(item: UntrustedItem): UntrustedContent {
  return { at: item.at, kind: item.kind, id: item.id, text: leafText(item.value, item.skipKeys ?? []) };
}
