import type { Icon, ReadResourceResult } from '@modelcontextprotocol/server';
import type { Session, ToolRight } from '@toolcircuit/core';

/** What a resource read or a prompt get is given: the caller's session (as `sessionFor` mapped it) and a signal. */
export interface ServedRequestContext {
  readonly session: Session;
  /** Aborts when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

export type ServedResourceContents = ReadResourceResult['contents'][number];

/** What resources and resource templates are listed with, and who may see and read them. */
interface ServedResourceListing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly Icon[];
  /** The right the caller's session must hold to see and read it, or `everySession`: deny by default, as tools. */
  readonly right: ToolRight;
}

/** A resource the server offers at a fixed URI (listed by `resources/list`). */
export interface ServedResource extends ServedResourceListing {
  readonly uri: string;
  read(context: ServedRequestContext): ServedResourceContents[] | Promise<ServedResourceContents[]>;
}

/** Resources under an RFC 6570 URI template (listed by `resources/templates/list`), e.g. `notes://{id}`. */
export interface ServedResourceTemplate extends ServedResourceListing {
  readonly uriTemplate: string;
  /** Reads the resource at `uri`, whose template variables are `variables` (a list for an exploded variable). */
  read(
    uri: string,
    variables: Readonly<Record<string, string | string[]>>,
    context: ServedRequestContext,
  ): ServedResourceContents[] | Promise<ServedResourceContents[]>;
  /** Suggestions for a variable's value as the user types it (`completion/complete`), by variable name. */
  readonly complete?: Readonly<Record<string, ServedCompletion>>;
}

/** Values that complete `value` (the client shows the first 100), given the other arguments already chosen. */
export type ServedCompletion = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>>; readonly session: Session },
) => readonly string[] | Promise<readonly string[]>;
