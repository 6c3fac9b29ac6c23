import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tool as agentsTool } from '@openai/agents';
import { prepareAnthropicTools } from '@toolcircuit/anthropic';
import {
  type AnyToolDefinition,
  createCatalogue,
  defineTool,
  everySession,
  type JsonSchemaObject,
  type ToolDeclaration,
} from '@toolcircuit/core';
import { prepareGoogleDeclarations } from '@toolcircuit/google';
import { createOpenAIChatModel } from '@toolcircuit/openai';
import { asSchema } from 'ai';
import { ORDER_TOOL_DESCRIPTION, orderZodSchema } from '../scenario/order-tool.js';
import { orderToolDefinition } from '../scenario/order-tool-definition.js';
import { toolNamesFor } from '../scenario/scenario.js';
import { median } from './stats.js';

export interface TranslationRow {
  readonly catalogue: string;
  readonly tools: number;
  readonly step: string;
  /** When it happens: once per catalogue, or on every step. */
  readonly when: 'once' | 'every step' | 'cached step';
  readonly ms: number;
}

/** The real catalogue translated alongside the synthetic one (the corpus copied into fixtures/, skipped when absent). */
// This file runs from apps/bench/{src,dist}/measure/.
export const REAL_CATALOGUE =
  process.env['BENCH_REAL_CATALOGUE'] ??
  fileURLToPath(new URL('../../../../fixtures/catalogues/mcp_github_mcp_server.json', import.meta.url));

/**
 * What turning a catalogue into each provider's tool list costs, and how often it is paid. toolcircuit
 * translates once per `catalogue.declarations` array (the adapters cache by its identity), so every
 * translation is timed on a fresh copy of the array (a cache miss), and the cached path separately.
 */
export async function measureCatalogueTranslation(samples: number, withReal: boolean): Promise<TranslationRow[]> {
  const rows: TranslationRow[] = [];
  const synthetic = toolNamesFor(100).map((name) => orderToolDefinition(name));
  const catalogues: [string, AnyToolDefinition[]][] = [['orders ×100 (synthetic)', synthetic]];
  const real = withReal ? loadRealCatalogue() : undefined;
  if (real !== undefined) catalogues.push(real);

  for (const [label, tools] of catalogues) {
    const add = (step: string, when: TranslationRow['when'], ms: number) =>
      rows.push({ catalogue: label, tools: tools.length, step, when, ms });
    add(
      'core createCatalogue (checks; ajv compiles on first call)',
      'once',
      timeMs(samples, () => createCatalogue(tools)),
    );
    // Each sample gets a fresh catalogue: the adapters cache by array AND the schema translator by schema
    // object, so translating the same declarations twice would time a cache hit.
    const fresh = () => createCatalogue(tools).declarations;
    add(
      'anthropic prepareAnthropicTools',
      'once',
      timeFresh(samples, fresh, (d) => prepareAnthropicTools(d)),
    );
    const declarations = fresh();
    prepareAnthropicTools(declarations);
    add(
      'anthropic prepareAnthropicTools, same array',
      'cached step',
      timeMs(samples, () => prepareAnthropicTools(declarations)),
    );
    add(
      'google prepareGoogleDeclarations (gemini)',
      'once',
      timeFresh(samples, fresh, (d) => prepareGoogleDeclarations(d, 'gemini')),
    );
    add(
      'google prepareGoogleDeclarations (gemini-json-schema)',
      'once',
      timeFresh(samples, fresh, (d) => prepareGoogleDeclarations(d, 'gemini-json-schema')),
    );
    const openai = await openAITranslationMs(fresh, samples);
    add('openai chat: first request minus a cached request', 'once', openai.miss - openai.hit);
    add('openai chat: a request with the cached translation', 'cached step', openai.hit);
  }

  // The peers, on the same 100 order tools written in Zod, as their users write them.
  const zodSchemas = toolNamesFor(100).map(() => orderZodSchema());
  const zodLabel = 'orders ×100 (Zod, peers)';
  rows.push({
    catalogue: zodLabel,
    tools: 100,
    step: 'ai: asSchema(zod).jsonSchema for every tool (prepareToolsAndToolChoice)',
    when: 'every step',
    ms: await timeMsAsync(samples, async () => {
      for (const schema of zodSchemas) await asSchema(schema).jsonSchema;
    }),
  });
  rows.push({
    catalogue: zodLabel,
    tools: 100,
    step: '@openai/agents: tool({ parameters: zod }) for every tool',
    when: 'once',
    ms: timeMs(samples, () =>
      zodSchemas.map((parameters, index) =>
        agentsTool({ name: `t${index}`, description: ORDER_TOOL_DESCRIPTION, parameters, execute: () => 'unused' }),
      ),
    ),
  });
  return rows;
}

function loadRealCatalogue(): [string, AnyToolDefinition[]] | undefined {
  if (!existsSync(REAL_CATALOGUE)) return undefined;
  const entries = JSON.parse(readFileSync(REAL_CATALOGUE, 'utf8')) as {
    name: string;
    description?: string;
    input_schema: JsonSchemaObject;
  }[];
  const tools: AnyToolDefinition[] = [];
  for (const entry of entries) {
    const definition = defineTool({
      name: entry.name,
      description: entry.description ?? '',
      inputSchema: entry.input_schema,
      right: everySession,
      run: () => 'unused',
    });
    try {
      createCatalogue([definition]);
      tools.push(definition);
    } catch {
      // A tool the catalogue refuses (bad name or schema) is left out; the row says how many remain.
    }
  }
  const file = REAL_CATALOGUE.split('/').at(-1) ?? REAL_CATALOGUE;
  return [`${file} (real)`, tools];
}

/** Chat Completions' translation is internal to the adapter: time a first request against a cached one. */
async function openAITranslationMs(
  fresh: () => readonly ToolDeclaration[],
  samples: number,
): Promise<{ miss: number; hit: number }> {
  const completion = JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'gpt-bench',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  // The SDK's documented `fetch` option: the SDK builds and serialises the request, nothing goes on a socket.
  const fetch = async () => new Response(completion, { status: 200, headers: { 'content-type': 'application/json' } });
  const model = createOpenAIChatModel({ model: 'gpt-bench', apiKey: 'bench', fetch, maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const misses: number[] = [];
  const hits: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const tools = fresh();
    let started = performance.now();
    await model.generate({ messages, tools });
    misses.push(performance.now() - started);
    started = performance.now();
    await model.generate({ messages, tools });
    hits.push(performance.now() - started);
  }
  return { miss: median(misses), hit: median(hits) };
}

function timeFresh<T>(samples: number, make: () => T, work: (input: T) => unknown): number {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const input = make();
    const started = performance.now();
    work(input);
    times.push(performance.now() - started);
  }
  return median(times);
}

function timeMs(samples: number, work: () => unknown): number {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function timeMsAsync(samples: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}
