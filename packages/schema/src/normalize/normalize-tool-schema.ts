import type { JsonObject } from '@toolcircuit/core';
import { normalizeSchema } from './normalize-schema.js';

/**
 * `normalizeSchema` in the shape `createCatalogue`'s `normalizeSchema` option takes: a catalogue then loads
 * tool lists written in BFCL's or ToolBench's dialect (`type: "dict"`, `float`, `optional` lists…) as the
 * standard JSON Schema `toolcircuit lint` and `convert` read them as, e.g.
 * `createCatalogue(tools, { normalizeSchema: normalizeToolSchema })`.
 */
export function normalizeToolSchema(schema: JsonObject, toolName: string): JsonObject {
  return normalizeSchema(schema, { toolName }).schema;
}
