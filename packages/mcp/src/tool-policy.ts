import type { ToolRight } from '@toolcircuit/core';

/** A tool as an MCP server lists it (the fields toolcircuit reads; servers may send more). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly outputSchema?: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations?: McpToolAnnotations;
}

/**
 * MCP's tool annotations. They are hints from the server, which may not be trusted: they can make a tool
 * stricter (destructive, open-world) but never grant anything.
 */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What the application decides for one imported tool. */
export interface McpToolPolicyDecision {
  /** The right a session must hold to call it (deny by default: the session must list it). */
  readonly right: ToolRight;
  /** Irreversible calls need the human's confirmation of their exact arguments before they run. */
  readonly irreversible: boolean;
  /**
   * The tool's output may carry text an outsider wrote (web pages, issues, mails): marked on the imported
   * tool (`mcp.untrustedOutput`) for the prompt-injection defences; it does not change how the call runs.
   */
  readonly untrustedOutput: boolean;
  /** Overrides the loop's `toolTimeoutMs` for this tool. */
  readonly timeoutMs?: number;
}

export interface McpToolPolicyContext {
  /** The server's name as the application gave it (`connectMcpServer({ name })`). */
  readonly server: string;
}

/**
 * Maps a server's tool to toolcircuit policy. Replace it with `connectMcpServer({ policy })`; a custom
 * policy usually calls this one and changes what it knows better (e.g. a right per tool).
 */
export type McpToolPolicy = (tool: McpToolInfo, context: McpToolPolicyContext) => McpToolPolicyDecision;

/**
 * The default policy, safe when nothing is known. Per the MCP specification a tool without annotations is
 * assumed destructive and open-world, and annotations come from the server, so:
 * - `destructiveHint` true **or absent** → irreversible (the human confirms the exact arguments). Only an
 *   explicit `destructiveHint: false`, or `readOnlyHint: true` (the spec gives `destructiveHint` meaning only
 *   for tools that are not read-only), makes a tool run without confirmation.
 * - the right is `mcp:<server>` for every tool of that server: `readOnlyHint` never grants a right; the
 *   application grants `mcp:<server>` to the sessions that may use that server (or maps tools to finer
 *   rights in its own policy).
 * - `openWorldHint` true **or absent** → output marked untrusted.
 */
export const defaultToolPolicy: McpToolPolicy = (tool, context) => {
  const annotations = tool.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  const irreversible = readOnly ? annotations.destructiveHint === true : annotations.destructiveHint !== false;
  return {
    right: `mcp:${context.server}`,
    irreversible,
    untrustedOutput: annotations.openWorldHint !== false,
  };
};
