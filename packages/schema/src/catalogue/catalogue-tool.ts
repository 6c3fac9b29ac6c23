import type { JsonObject } from '@toolcircuit/core';

/** One tool as a catalogue file declares it, whatever the file's format. */
export interface CatalogueTool {
  readonly name: string;
  readonly description: string;
  /** The tool's input schema exactly as the file gives it (not normalized, not translated). */
  readonly inputSchema: JsonObject;
  /** Provenance string when the file carries one (the shared corpus does). */
  readonly source?: string;
}
