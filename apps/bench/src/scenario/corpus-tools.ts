import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CorpusTool {
  readonly description: string;
  readonly inputSchema: unknown;
}

// This file runs from apps/bench/{src,dist}/scenario/.
const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The repository's real tool corpus: the shared catalogues copied into fixtures/catalogues (their provenance:
 * fixtures/catalogues/SOURCES.md) and the MCP servers recorded from npm (packages/schema/test/fixtures/
 * corpus-extra/SOURCES.md). `bfcl_normalized.json` is left out: it is a derived copy of bfcl.json.
 */
export const CORPUS_DIRS: readonly string[] = ['fixtures/catalogues/', 'packages/schema/test/fixtures/corpus-extra/'];

export function loadCorpusTools(): CorpusTool[] {
  const tools: CorpusTool[] = [];
  for (const dir of CORPUS_DIRS) {
    const names = readdirSync(REPOSITORY + dir)
      .filter((name) => name.endsWith('.json') && name !== 'bfcl_normalized.json')
      .sort();
    for (const name of names) {
      const data: unknown = JSON.parse(readFileSync(REPOSITORY + dir + name, 'utf8'));
      // Either a list of {name, description, input_schema} or a recorded tools/list answer {tools: [...]}.
      const list = Array.isArray(data) ? data : (data as { tools?: unknown } | null)?.tools;
      if (!Array.isArray(list)) continue;
      for (const entry of list as Record<string, unknown>[]) {
        const inputSchema = entry['input_schema'] ?? entry['inputSchema'] ?? entry['parameters'];
        if (inputSchema === undefined) continue;
        tools.push({ description: typeof entry['description'] === 'string' ? entry['description'] : '', inputSchema });
      }
    }
  }
  return tools;
}
