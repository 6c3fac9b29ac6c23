import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkProviderSchema,
  createToolNameMap,
  SCHEMA_TARGETS,
  type SchemaTarget,
  SchemaTranslationError,
  TOOL_NAME_RULES,
  translateSchema,
} from '../src/index.js';
import type { CatalogueFile } from '../src/report/build-portability-report.js';
import { loadAllCatalogues } from './support/catalogues.js';
import { loadExtraCatalogues } from './support/extra-catalogues.js';

/** [translated unchanged, translated with changes, refused] per source file and target. */
const EXPECTED: Record<string, Record<SchemaTarget, [number, number, number]>> = {
  'api_bank_openai_tools.json': {
    anthropic: [67, 0, 0],
    openai: [65, 2, 0],
    'openai-strict': [0, 67, 0],
    gemini: [64, 3, 0],
    'gemini-json-schema': [67, 0, 0],
  },
  'bfcl.json': {
    anthropic: [0, 818, 0],
    openai: [0, 818, 0],
    'openai-strict': [0, 818, 0],
    gemini: [0, 818, 0],
    'gemini-json-schema': [0, 818, 0],
  },
  'extra/mcp_npm_firecrawl-mcp.json': {
    anthropic: [0, 27, 0],
    openai: [27, 0, 0],
    'openai-strict': [0, 27, 0],
    gemini: [0, 27, 0],
    'gemini-json-schema': [0, 27, 0],
  },
  'extra/mcp_npm_hubspot_mcp-server.json': {
    anthropic: [0, 21, 0],
    openai: [20, 1, 0],
    'openai-strict': [0, 21, 0],
    gemini: [0, 21, 0],
    'gemini-json-schema': [0, 21, 0],
  },
  'extra/mcp_npm_mongodb-mcp-server.json': {
    anthropic: [0, 27, 0],
    openai: [27, 0, 0],
    'openai-strict': [0, 27, 0],
    gemini: [0, 27, 0],
    'gemini-json-schema': [0, 27, 0],
  },
  'extra/mcp_npm_notionhq_notion-mcp-server.json': {
    anthropic: [0, 24, 0],
    openai: [24, 0, 0],
    'openai-strict': [0, 24, 0],
    gemini: [0, 24, 0],
    'gemini-json-schema': [0, 24, 0],
  },
  'extra/mcp_npm_pinecone-database_mcp.json': {
    anthropic: [0, 9, 0],
    openai: [9, 0, 0],
    'openai-strict': [0, 9, 0],
    gemini: [0, 9, 0],
    'gemini-json-schema': [0, 9, 0],
  },
  'gorilla_openfunctions_v1.json': {
    anthropic: [111, 1, 0],
    openai: [111, 1, 0],
    'openai-strict': [0, 112, 0],
    gemini: [104, 8, 0],
    'gemini-json-schema': [111, 1, 0],
  },
  'mcp_github_mcp_server.json': {
    anthropic: [53, 64, 0],
    openai: [117, 0, 0],
    'openai-strict': [0, 117, 0],
    gemini: [109, 8, 0],
    'gemini-json-schema': [113, 4, 0],
  },
  'mcp_livemcpbench.json': {
    anthropic: [225, 302, 0],
    openai: [525, 2, 0],
    'openai-strict': [0, 527, 0],
    gemini: [259, 268, 0],
    'gemini-json-schema': [359, 168, 0],
  },
  'mcp_mcpbench.json': {
    anthropic: [118, 139, 0],
    openai: [257, 0, 0],
    'openai-strict': [0, 257, 0],
    gemini: [168, 89, 0],
    'gemini-json-schema': [214, 43, 0],
  },
  'mcp_notion.json': {
    anthropic: [0, 24, 0],
    openai: [24, 0, 0],
    'openai-strict': [0, 24, 0],
    gemini: [0, 24, 0],
    'gemini-json-schema': [0, 24, 0],
  },
  'mcp_reference_servers.json': {
    anthropic: [8, 47, 0],
    openai: [55, 0, 0],
    'openai-strict': [0, 55, 0],
    gemini: [11, 44, 0],
    'gemini-json-schema': [14, 41, 0],
  },
  'mcp_reference_servers_archived.json': {
    anthropic: [27, 42, 0],
    openai: [69, 0, 0],
    'openai-strict': [0, 69, 0],
    gemini: [32, 37, 0],
    'gemini-json-schema': [34, 35, 0],
  },
  'stabletoolbench_rapidapi_converted.json': {
    anthropic: [0, 300, 0],
    openai: [0, 300, 0],
    'openai-strict': [0, 300, 0],
    gemini: [0, 300, 0],
    'gemini-json-schema': [0, 300, 0],
  },
  'toolbench_openai_functions.json': {
    anthropic: [2, 54, 0],
    openai: [2, 54, 0],
    'openai-strict': [0, 56, 0],
    gemini: [2, 54, 0],
    'gemini-json-schema': [2, 54, 0],
  },
};

/**
 * Tool counts per file, from catalogues/SOURCES.md (mcp_sentry.json is not shipped: 2,456 − 54 = 2,402),
 * and from fixtures/corpus-extra/SOURCES.md for the servers recorded from npm (108).
 */
const TOOLS_PER_FILE: Record<string, number> = {
  'api_bank_openai_tools.json': 67,
  'bfcl.json': 818,
  'extra/mcp_npm_firecrawl-mcp.json': 27,
  'extra/mcp_npm_hubspot_mcp-server.json': 21,
  'extra/mcp_npm_mongodb-mcp-server.json': 27,
  'extra/mcp_npm_notionhq_notion-mcp-server.json': 24,
  'extra/mcp_npm_pinecone-database_mcp.json': 9,
  'gorilla_openfunctions_v1.json': 112,
  'mcp_github_mcp_server.json': 117,
  'mcp_livemcpbench.json': 527,
  'mcp_mcpbench.json': 257,
  'mcp_notion.json': 24,
  'mcp_reference_servers.json': 55,
  'mcp_reference_servers_archived.json': 69,
  'stabletoolbench_rapidapi_converted.json': 300,
  'toolbench_openai_functions.json': 56,
};

let files: CatalogueFile[] = [];
beforeAll(async () => {
  files = [...(await loadAllCatalogues()), ...(await loadExtraCatalogues())];
});

describe('the shared catalogues and the extra corpus', () => {
  it('load completely: every file, every tool, each with a name, a description string and an object schema', () => {
    expect(Object.fromEntries(files.map((file) => [file.source, file.tools.length]))).toEqual(TOOLS_PER_FILE);
    for (const file of files) {
      for (const tool of file.tools) {
        expect(tool.name.length).toBeGreaterThan(0);
        expect(typeof tool.description).toBe('string');
        expect(typeof tool.inputSchema).toBe('object');
      }
    }
  });

  it('translate for every target or are refused by name, and the checker finds nothing in any translation', () => {
    const counts: Record<string, Record<string, [number, number, number]>> = {};
    const violations: string[] = [];
    for (const file of files) {
      const row: Record<string, [number, number, number]> = {};
      for (const target of SCHEMA_TARGETS) {
        const cell: [number, number, number] = [0, 0, 0];
        for (const tool of file.tools) {
          try {
            const translated = translateSchema(tool.inputSchema, target, { toolName: tool.name });
            cell[translated.changes.length === 0 ? 0 : 1] += 1;
            // Checked in the dialect it is sent in (a tool the target would narrow goes in the looser one).
            const found = checkProviderSchema(translated.schema, translated.dialect, {
              parametersOmitted: translated.omitParameters === true,
            });
            for (const violation of found)
              violations.push(`${file.source} ${tool.name} ${target} ${violation.path}: ${violation.message}`);
          } catch (error) {
            expect(error).toBeInstanceOf(SchemaTranslationError);
            expect((error as SchemaTranslationError).message).toContain(tool.name);
            cell[2] += 1;
          }
        }
        row[target] = cell;
      }
      counts[file.source] = row;
    }
    expect(violations).toEqual([]);
    expect(counts).toEqual(EXPECTED);
  }, 120_000);

  it('records every change at a JSON pointer that exists in the ORIGINAL schema', () => {
    const dangling: string[] = [];
    for (const file of files) {
      for (const tool of file.tools) {
        for (const target of SCHEMA_TARGETS) {
          for (const change of translateSchema(tool.inputSchema, target).changes) {
            if (!pointsInto(tool.inputSchema, change.path))
              dangling.push(`${file.source} ${tool.name} ${target} ${change.path}`);
          }
        }
      }
    }
    expect(dangling).toEqual([]);
  });

  it('the checker is not a rubber stamp: the untranslated schemas break every provider somewhere', () => {
    const broken = new Map<SchemaTarget, number>();
    for (const file of files) {
      for (const tool of file.tools) {
        for (const target of SCHEMA_TARGETS) {
          if (checkProviderSchema(tool.inputSchema, target).length > 0)
            broken.set(target, (broken.get(target) ?? 0) + 1);
        }
      }
    }
    // BFCL's `dict` alone breaks all 818 BFCL tools on every provider.
    for (const target of SCHEMA_TARGETS) expect(broken.get(target) ?? 0).toBeGreaterThanOrEqual(818);
    expect(broken.get('openai-strict')).toBe(2510);
  });

  it('map every distinct tool name to a valid, unique provider name that maps back', () => {
    for (const file of files) {
      const names = [...new Set(file.tools.map((tool) => tool.name))];
      for (const target of SCHEMA_TARGETS) {
        const map = createToolNameMap(names, target);
        const provided = names.map((name) => map.toProvider(name));
        expect(new Set(provided).size).toBe(names.length);
        for (const [index, name] of names.entries()) {
          const mapped = provided[index] ?? '';
          expect(mapped, `${target}: ${name}`).toMatch(TOOL_NAME_RULES[target].pattern);
          expect(map.fromProvider(mapped)).toBe(name);
        }
      }
    }
  });
});

function pointsInto(root: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}
