import type { Icon, Tool } from '@modelcontextprotocol/server';
import type { Catalogue } from '@toolcircuit/core';

/** What MCP shows of a tool beyond its declaration: for the client's interface, not for the checks. */
export interface ServedToolExtras {
  /** A human-readable name for the client's interface. */
  readonly title?: string;
  readonly icons?: readonly Icon[];
  /**
   * The JSON Schema of the tool's structured result. A tool that declares one must return one JSON object
   * (its result's single `json` part, or an object from `run`): it goes as `structuredContent` beside the text.
   */
  readonly outputSchema?: Tool['outputSchema'];
}

/**
 * The `tools/list` entries of a catalogue: each tool's declaration, annotations derived from its definition
 * (irreversible → `destructiveHint: true`), and the extras the application gives by tool name.
 */
export function servedToolListing(
  catalogue: Catalogue,
  extras: Readonly<Record<string, ServedToolExtras>> | undefined,
): Tool[] {
  return catalogue.names.map((name) => {
    const entry = catalogue.get(name);
    if (entry === undefined) throw new Error(`unreachable: "${name}" is listed but not in the catalogue`);
    const extra = extras?.[name];
    return {
      name,
      ...(extra?.title === undefined ? {} : { title: extra.title }),
      description: entry.declaration.description,
      inputSchema: entry.declaration.inputSchema as Tool['inputSchema'],
      ...(extra?.outputSchema === undefined ? {} : { outputSchema: extra.outputSchema }),
      ...(extra?.icons === undefined ? {} : { icons: [...extra.icons] }),
      annotations: { destructiveHint: entry.definition.irreversible },
    };
  });
}
