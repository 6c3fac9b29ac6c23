import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { isAuthorized, type Session } from '@toolcircuit/core';
import { authorizedPageOf } from './page-of.js';
import type { ServedPrompt } from './served-prompts.js';

/**
 * `prompts/list` and `prompts/get`. A caller sees and gets only the prompts its session holds the right to;
 * one it may not get is answered like an unknown one. Missing required arguments are refused before the
 * prompt's `get` runs.
 */
export function registerPrompts(
  server: Server,
  prompts: readonly ServedPrompt[],
  pageSize: number | undefined,
  sessionOf: (ctx: ServerContext) => Promise<Session>,
): void {
  server.setRequestHandler('prompts/list', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const page = authorizedPageOf(prompts, session, request.params?.cursor, pageSize);
    return {
      prompts: page.items.map(({ get, right, complete, icons, arguments: args, ...listed }) => ({
        ...listed,
        ...(args === undefined ? {} : { arguments: [...args] }),
        ...(icons === undefined ? {} : { icons: [...icons] }),
      })),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  });
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const { name } = request.params;
    const prompt = prompts.find((candidate) => candidate.name === name);
    if (prompt === undefined || !isAuthorized(prompt.right, session)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    }
    const args = request.params.arguments ?? {};
    const missing = (prompt.arguments ?? []).filter(
      (argument) => argument.required === true && !(argument.name in args),
    );
    if (missing.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt "${name}" needs the argument(s) ${missing.map((argument) => argument.name).join(', ')}.`,
      );
    }
    const messages = await prompt.get(args, { session, signal: ctx.mcpReq.signal });
    return { ...(prompt.description === undefined ? {} : { description: prompt.description }), messages };
  });
}
