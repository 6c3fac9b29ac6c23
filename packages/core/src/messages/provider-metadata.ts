import type { JsonObject } from '../json/json.js';

/**
 * Provider-specific data that must ride along with a neutral value without leaking into its type:
 * Anthropic thinking signatures, OpenAI reasoning item ids, Gemini `thoughtSignature`, raw stop values.
 *
 * Keyed by provider name (`anthropic`, `openai`, `google`, …); each adapter reads only its own key and
 * sends back unchanged whatever it wrote there, so a conversation can move between turns intact.
 */
export type ProviderMetadata = Readonly<Record<string, JsonObject>>;

/**
 * Per-provider request options (the "options bag"): fields that only one provider understands, such as
 * Anthropic `thinking` or OpenAI `reasoning.effort`. Neutral code never reads inside it.
 */
export type ProviderOptions = Readonly<Record<string, JsonObject>>;
