import {
  type Icon,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { isAuthorized, type Session } from '@toolcircuit/core';
import { authorizedPageOf } from './page-of.js';
import type {
  ServedRequestContext,
  ServedResource,
  ServedResourceContents,
  ServedResourceTemplate,
} from './served-resources.js';

export interface ResourceHandlers {
  readonly resources: readonly ServedResource[];
  readonly templates: readonly ServedResourceTemplate[];
  readonly pageSize: number | undefined;
  readonly sessionOf: (ctx: ServerContext) => Promise<Session>;
  /**
   * The URIs this connection subscribed to (`resources/subscribe`), with the session that subscribed, for
   * `ServedCatalogue.resourceUpdated`.
   */
  readonly subscriptions: Map<string, Session>;
}

/**
 * `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `unsubscribe`.
 * A caller sees and reads only the resources its session holds the right to; one it may not read is answered
 * exactly like one that does not exist.
 */
export function registerResources(
  server: Server,
  handlers: ResourceHandlers,
): { mayRead(uri: string, session: Session): boolean } {
  const { resources, templates, pageSize, sessionOf, subscriptions } = handlers;
  const matchers = templates.map((template) => ({ template, uri: new UriTemplate(template.uriTemplate) }));

  server.setRequestHandler('resources/list', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const page = authorizedPageOf(resources, session, request.params?.cursor, pageSize);
    return {
      resources: page.items.map(({ read, right, icons, ...listed }) => ({ ...listed, ...iconsOf(icons) })),
      ...cursorOf(page),
    };
  });
  server.setRequestHandler('resources/templates/list', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const page = authorizedPageOf(templates, session, request.params?.cursor, pageSize);
    return {
      resourceTemplates: page.items.map(({ read, right, complete, icons, ...listed }) => ({
        ...listed,
        ...iconsOf(icons),
      })),
      ...cursorOf(page),
    };
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const session = await sessionOf(ctx);
    const { uri } = request.params;
    const found = readerOf(uri, session);
    if (found === undefined) throw new ResourceNotFoundError(uri);
    return { contents: await found({ session, signal: ctx.mcpReq.signal }) };
  });
  // Subscribing needs no right: it tells nothing, and updates go out only for what the session may read.
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    subscriptions.set(request.params.uri, await sessionOf(ctx));
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request, ctx) => {
    await sessionOf(ctx);
    subscriptions.delete(request.params.uri);
    return {};
  });

  function readerOf(uri: string, session: Session): ((context: ServedRequestContext) => Promise<Contents>) | undefined {
    const resource = resources.find((candidate) => candidate.uri === uri);
    if (resource !== undefined && isAuthorized(resource.right, session))
      return async (context) => resource.read(context);
    for (const { template, uri: matcher } of matchers) {
      const variables = matcher.match(uri);
      if (variables !== null && isAuthorized(template.right, session)) {
        return async (context) => template.read(uri, variables, context);
      }
    }
    return undefined;
  }
  return { mayRead: (uri, session) => readerOf(uri, session) !== undefined };
}

type Contents = ServedResourceContents[];

function iconsOf(icons: readonly Icon[] | undefined): { icons?: Icon[] } {
  return icons === undefined ? {} : { icons: [...icons] };
}

function cursorOf(page: { readonly nextCursor?: string }): { nextCursor?: string } {
  return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
}
