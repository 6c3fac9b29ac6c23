import type { OpenAI } from 'openai';
import { createOpenAIClient, type OpenAISharedModelOptions, providerNameOf } from './openai-shared-options.js';
import type { OpenAISchemaOptions } from './openai-shared-tool-set.js';

export interface OpenAIChatModelOptions extends OpenAISharedModelOptions {
  /**
   * Role of the system instructions. `system` (default) works everywhere; OpenAI's reasoning models prefer
   * `developer`, which many OpenAI-compatible servers do not know.
   */
  readonly systemRole?: 'system' | 'developer';
  /**
   * Which field carries `maxOutputTokens`. Defaults to `max_completion_tokens` for OpenAI (reasoning models
   * reject the deprecated `max_tokens`) and to `max_tokens` for any other `provider`, since compatible
   * servers mostly only know that one.
   */
  readonly maxTokensParameter?: 'max_completion_tokens' | 'max_tokens';
  /**
   * Ask for the usage chunk at the end of a stream (`stream_options.include_usage`, default true). Turn it
   * off for servers that reject `stream_options`.
   */
  readonly streamUsage?: boolean;
  /**
   * Declare text tools (core's `defineTextTool`) as custom tools (`type: 'custom'`, with their grammar).
   * Defaults to true for OpenAI and false for any other `provider`: compatible servers rarely know custom
   * tools, and get a function with one string parameter instead (`text-input-as-function` in the change log).
   */
  readonly customTools?: boolean;
}

/** The Chat adapter's settings after defaults, as the request builder and stream need them. */
export interface OpenAIChatSettings extends OpenAISchemaOptions {
  readonly provider: string;
  readonly model: string;
  readonly systemRole: 'system' | 'developer';
  readonly maxTokensParameter: 'max_completion_tokens' | 'max_tokens';
  readonly streamUsage: boolean;
  readonly customTools: boolean;
}

export function resolveOpenAIChatSettings(options: OpenAIChatModelOptions): OpenAIChatSettings {
  const provider = providerNameOf(options);
  return {
    provider,
    model: options.model,
    strict: options.strict ?? false,
    keepUndeclaredKeys: options.keepUndeclaredKeys ?? false,
    systemRole: options.systemRole ?? 'system',
    maxTokensParameter: options.maxTokensParameter ?? (provider === 'openai' ? 'max_completion_tokens' : 'max_tokens'),
    streamUsage: options.streamUsage ?? true,
    customTools: options.customTools ?? provider === 'openai',
  };
}

/** Returns the user's client or builds one; a missing key throws here, naming the variable to set. */
export function createOpenAIChatClient(options: OpenAIChatModelOptions): OpenAI {
  return createOpenAIClient(options);
}
