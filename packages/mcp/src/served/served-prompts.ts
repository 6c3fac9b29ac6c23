import type { GetPromptResult, Icon, PromptArgument } from '@modelcontextprotocol/server';
import type { ToolRight } from '@toolcircuit/core';
import type { ServedCompletion, ServedRequestContext } from './served-resources.js';

/** A prompt template the server offers (`prompts/list`, `prompts/get`). */
export interface ServedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  /** Its arguments; a `required` one missing from a `prompts/get` is refused before `get` runs. */
  readonly arguments?: readonly PromptArgument[];
  /** The right the caller's session must hold to see and get it, or `everySession`. */
  readonly right: ToolRight;
  get(
    args: Readonly<Record<string, string>>,
    context: ServedRequestContext,
  ): GetPromptResult['messages'] | Promise<GetPromptResult['messages']>;
  /** Suggestions for an argument's value as the user types it (`completion/complete`), by argument name. */
  readonly complete?: Readonly<Record<string, ServedCompletion>>;
}
