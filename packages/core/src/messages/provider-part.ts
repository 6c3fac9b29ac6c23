import type { JsonObject } from '../json/json.js';

/**
 * Something a provider sent in a turn that the adapter has no neutral meaning for: an output item, content
 * block or part of a type it does not know (a new hosted tool's item, a new block kind). It is never dropped:
 * the adapter keeps it whole, in its place among the turn's parts, and sends it back in that place on the
 * next request to the same provider (other adapters leave it out, as they do another provider's reasoning).
 * The stream announces it with a `provider-part` event and the loop writes a journal note for it, so an
 * application sees that the provider said something the circuit did not understand.
 *
 * A request to act of an unknown kind (a call the circuit cannot answer) is not only kept: the adapter ends
 * the turn with a `ProviderError` of code `unsupported_call`, since answering nothing would leave the
 * provider waiting and the application believing the model was done.
 */
export interface ProviderPart {
  readonly type: 'provider';
  /** The adapter that made it (its key in provider bags: `anthropic`, `openai`, `google`…). */
  readonly provider: string;
  /** The provider's own name for it: an item or block `type` (`compaction`), or a Gemini part's field. */
  readonly kind: string;
  /** The item, block or part exactly as received. */
  readonly data: JsonObject;
}
