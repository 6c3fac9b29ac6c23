import type { OpenAI } from 'openai';
import { checkResponsesToolSearch, type OpenAIResponsesToolSearch } from './openai-responses-tool-search.js';
import { createOpenAIClient, type OpenAISharedModelOptions, providerNameOf } from './openai-shared-options.js';
import type { OpenAISchemaOptions } from './openai-shared-tool-set.js';

export interface OpenAIResponsesModelOptions extends OpenAISharedModelOptions {
  /**
   * `store` sent with every request. Default `false`: toolcircuit re-sends the whole conversation each turn
   * (it never uses `previous_response_id`), so nothing needs to live on OpenAI's side, and a run's data stays
   * where the run's journal is. With `store: false`, reasoning items can only be sent back with their
   * `encrypted_content`, hence {@link includeEncryptedReasoning}.
   */
  readonly store?: boolean;
  /**
   * Ask for `include: ['reasoning.encrypted_content']`. Defaults to true when `store` is false and the model
   * id looks like a reasoning model (`o1`…`o4`, `gpt-5*` except `gpt-5*-chat*`, `codex*`), because
   * non-reasoning models answer 400 "Encrypted content is not supported with this model". Set it explicitly
   * for model ids this guess does not know.
   */
  readonly includeEncryptedReasoning?: boolean;
  /**
   * Deferred tools (a catalogue with `defer`): `neutral` (default) uses core's search tool; `native` the
   * Responses API's hosted `tool_search` with `defer_loading` on the deferred tools.
   */
  readonly toolSearch?: OpenAIResponsesToolSearch;
}

/** The Responses adapter's settings after defaults. */
export interface OpenAIResponsesSettings extends OpenAISchemaOptions {
  readonly provider: string;
  readonly model: string;
  readonly store: boolean;
  readonly includeEncryptedReasoning: boolean;
  readonly toolSearch: OpenAIResponsesToolSearch;
}

export function resolveOpenAIResponsesSettings(options: OpenAIResponsesModelOptions): OpenAIResponsesSettings {
  const store = options.store ?? false;
  const provider = providerNameOf(options);
  return {
    provider,
    toolSearch: checkResponsesToolSearch(provider, options.toolSearch),
    model: options.model,
    strict: options.strict ?? false,
    keepUndeclaredKeys: options.keepUndeclaredKeys ?? false,
    store,
    includeEncryptedReasoning: options.includeEncryptedReasoning ?? (!store && looksLikeReasoningModel(options.model)),
  };
}

/** A guess from the model id only; {@link OpenAIResponsesModelOptions.includeEncryptedReasoning} overrides it. */
export function looksLikeReasoningModel(model: string): boolean {
  const id = model.toLowerCase();
  if (/^gpt-5(\.\d+)?-chat/.test(id)) return false;
  return /^(o\d|gpt-5|codex)/.test(id);
}

/** Returns the user's client or builds one; a missing key throws here, naming the variable to set. */
export function createOpenAIResponsesClient(options: OpenAIResponsesModelOptions): OpenAI {
  return createOpenAIClient(options);
}
