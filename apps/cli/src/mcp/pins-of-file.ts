import { parseJsonFile, readInputFile } from '../catalogue/read-input-file.js';
import { UsageError } from '../errors/usage-error.js';
import { FINGERPRINT_META } from './imported-tools-file.js';

/** The pins in a file written by `mcp import`: each tool's fingerprint, by its MCP name. */
export async function pinsOfFile(file: string): Promise<Record<string, string>> {
  const data = parseJsonFile(await readInputFile(file, 'pins'), file, 'pins') as { tools?: unknown };
  if (!Array.isArray(data.tools)) {
    throw new UsageError(`${file} has no "tools" list.`, 'Point "pins" at a file written by `toolcircuit mcp import`.');
  }
  const pins: Record<string, string> = {};
  for (const tool of data.tools as { name?: unknown; _meta?: Record<string, unknown> }[]) {
    const fingerprint = tool._meta?.[FINGERPRINT_META];
    if (typeof tool.name === 'string' && typeof fingerprint === 'string') pins[tool.name] = fingerprint;
  }
  return pins;
}
