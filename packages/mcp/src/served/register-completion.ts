import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { isAuthorized, type Session } from '@toolcircuit/core';
import type { ServedPrompt } from './served-prompts.js';
import type { ServedCompletion, ServedResourceTemplate } from './served-resources.js';

/** The most values one completion answer may carry (the specification's limit). */
const MAX_VALUES = 100;

/**
 * `completion/complete` for prompt arguments and resource template variables. A prompt or template without a
 * completer for the argument, or one the session may not use, completes to nothing (an empty list, not an
 * error: the client simply shows no suggestions).
 */
export function registerCompletion(
  server: Server,
  prompts: readonly ServedPrompt[],
  templates: readonly ServedResourceTemplate[],
  sessionOf: (ctx: ServerContext) => Promise<Session>,
): void {
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const { ref, argument } = request.params;
    const owner =
      ref.type === 'ref/prompt'
        ? prompts.find((prompt) => prompt.name === ref.name)
        : templates.find((template) => template.uriTemplate === ref.uri);
    const complete: ServedCompletion | undefined =
      owner !== undefined && isAuthorized(owner.right, session) ? owner.complete?.[argument.name] : undefined;
    const values =
      complete === undefined
        ? []
        : await complete(argument.value, { arguments: request.params.context?.arguments ?? {}, session });
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}
