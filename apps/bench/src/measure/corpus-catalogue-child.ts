/**
 * Child process of the startup phase (`node dist/measure/corpus-catalogue-child.js [--peer]`): builds one
 * lenient catalogue of the whole tool corpus of the repository, twice (the first call in a fresh process pays
 * loading ajv and compiling its meta-schema; the second is a server building its next catalogue), and
 * prints one JSON line. With `--peer`, instead, it times what `createCatalogue` did before compiling on
 * first use: ajv compiling every schema the catalogue accepts, on the same options.
 */
import { createRequire } from 'node:module';
import { type AnyToolDefinition, createCatalogue, everySession } from '@toolcircuit/core';
import { loadCorpusTools } from '../scenario/corpus-tools.js';

export interface CorpusCatalogueReport {
  readonly tools: number;
  readonly loaded: number;
  readonly refused: number;
  /** The first `createCatalogue` of the process: wall and CPU (user + system) milliseconds. */
  readonly coldMs: number;
  readonly coldCpuMs: number;
  /** The second, on the same tools. */
  readonly warmMs: number;
  readonly warmCpuMs: number;
  /** RSS growth (MB) across the first call, and the process's peak RSS (MB) at the end. */
  readonly rssGrowthMb: number;
  readonly peakRssMb: number;
  /** `--peer` only: ajv compiling every accepted schema (ms, and CPU ms), and the RSS growth it caused. */
  readonly peerMs?: number;
  readonly peerCpuMs?: number;
  readonly peerRssGrowthMb?: number;
}

const MB = 1024 * 1024;

function definitions(): AnyToolDefinition[] {
  return loadCorpusTools().map((tool, index) => ({
    // Unique names and a description for every tool: every schema is checked, none is skipped as a duplicate.
    name: `corpus_${index}`,
    description: tool.description.trim() === '' ? 'A tool of the corpus.' : tool.description,
    inputSchema: tool.inputSchema as AnyToolDefinition['inputSchema'],
    right: everySession,
    irreversible: false,
    run: () => undefined,
  }));
}

function timed<T>(work: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

const tools = definitions();
const before = process.memoryUsage().rss;
const cold = timed(() => createCatalogue(tools, { mode: 'lenient' }));
const rssGrowthMb = (process.memoryUsage().rss - before) / MB;
const warm = timed(() => createCatalogue(tools, { mode: 'lenient' }));
let peer: Pick<CorpusCatalogueReport, 'peerMs' | 'peerCpuMs' | 'peerRssGrowthMb'> = {};
if (process.argv.includes('--peer')) {
  const accepted = new Set(cold.value.names);
  const schemas = tools.filter((tool) => accepted.has(tool.name)).map((tool) => tool.inputSchema);
  // core's own dependencies, so the same ajv and ajv-formats as the catalogue's.
  const require = createRequire(createRequire(import.meta.url).resolve('@toolcircuit/core'));
  const ajvModule = require('ajv') as { default: new (options: object) => { compile(schema: unknown): unknown } };
  const addFormats = require('ajv-formats') as (ajv: unknown) => void;
  const rssBefore = process.memoryUsage().rss;
  const compiled = timed(() => {
    // One instance per catalogue, as before; schemas with `$schema` of another draft are compiled as draft-07
    // here only if they are draft-07 (the corpus's others are few and need their own instance).
    const ajv = new ajvModule.default({ strict: false, allErrors: true, verbose: true, logger: false });
    addFormats(ajv);
    let count = 0;
    for (const schema of schemas) {
      if ((schema as { $schema?: unknown }).$schema !== undefined) continue;
      ajv.compile(schema);
      count += 1;
    }
    return count;
  });
  peer = {
    peerMs: compiled.ms,
    peerCpuMs: compiled.cpuMs,
    peerRssGrowthMb: (process.memoryUsage().rss - rssBefore) / MB,
  };
}
const report: CorpusCatalogueReport = {
  tools: tools.length,
  loaded: cold.value.names.length,
  refused: cold.value.refused.length,
  coldMs: cold.ms,
  coldCpuMs: cold.cpuMs,
  warmMs: warm.ms,
  warmCpuMs: warm.cpuMs,
  rssGrowthMb,
  peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
  ...peer,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
