import { buildAnthropicRequest, createAnthropicModel } from '@toolcircuit/anthropic';
import {
  createCatalogue,
  createSession,
  defineTool,
  type JsonSchemaObject,
  type Message,
  type Model,
  runLoop,
} from '@toolcircuit/core';
import { convertToGoogleMessages, createGoogleModel } from '@toolcircuit/google';
import { createOpenAIChatModel } from '@toolcircuit/openai';
import { collectGarbage } from '../measure/collect-garbage.js';
import { intervals, mean, median } from '../measure/stats.js';
import {
  lookUpOrders,
  ORDER_TOOL_DESCRIPTION,
  type OrderLookupInput,
  orderJsonSchema,
} from '../scenario/order-tool.js';
import { startInstantServer } from './start-instant-server.js';

export interface AdapterWireCost {
  readonly adapter: string;
  readonly steps: number;
  readonly calls: number;
  /** Mean step cost (adapter build + SDK serialise + loopback HTTP + parse + circuit) over the first 10 steps. */
  readonly first10Us: number;
  readonly last10Us: number;
  readonly firstBodyBytes: number;
  readonly lastBodyBytes: number;
  /** Extra step cost per extra KB of request body, from the first to the last 10 steps. */
  readonly usPerKb: number;
}

export interface BuilderCost {
  readonly builder: string;
  /** History length in steps (each: one assistant turn with K calls and one tool reply). */
  readonly historySteps: number;
  readonly bodyBytes: number;
  /** Median time to build the request body and `JSON.stringify` it, as the SDK does before sending. */
  readonly buildUs: number;
}

export interface WireCostReport {
  readonly adapters: readonly AdapterWireCost[];
  readonly builders: readonly BuilderCost[];
}

const TOOL = 'look_up_orders';
const SETTINGS = { model: 'claude-bench', maxTokens: 1024 };

/**
 * The wire cost: each real adapter, through its official SDK, against an instant server on 127.0.0.1
 * (another process), for `steps` steps of `calls` calls. The step cost at the start and at the end of
 * the conversation shows whether the adapter's work grows with the history; the body sizes show how
 * much is re-sent. Then, for the adapters that export their request builders, the builder plus
 * `JSON.stringify` alone, at several history lengths.
 */
export async function measureWireCost(
  steps: number,
  calls: number,
  historyPoints: readonly number[],
  rounds: number,
): Promise<WireCostReport> {
  const server = await startInstantServer(TOOL, calls);
  try {
    let history: readonly Message[] = [];
    const makers: readonly [string, () => Model][] = [
      [
        'anthropic (@anthropic-ai/sdk)',
        () => createAnthropicModel({ model: 'claude-bench', apiKey: 'bench', baseURL: server.url, maxRetries: 0 }),
      ],
      [
        'openai chat (openai)',
        () =>
          createOpenAIChatModel({ model: 'gpt-bench', apiKey: 'bench', baseURL: `${server.url}/v1`, maxRetries: 0 }),
      ],
      [
        'google (@google/genai)',
        () => createGoogleModel({ model: 'gemini-bench', apiKey: 'bench', baseURL: server.url }),
      ],
    ];
    const models = makers.map(([adapter, make]) => ({ adapter, model: make() }));
    for (const { model } of models) await playAgainst(model, Math.min(5, steps)); // warm-up: JIT, keep-alive socket
    await server.takeSizes();
    // The adapters alternate round by round; each figure is the best of the rounds, the least disturbed
    // by whatever else the two shared cores were doing.
    const runs = new Map<string, AdapterWireCost[]>();
    for (let round = 0; round < rounds; round += 1) {
      for (const { adapter, model } of models) {
        collectGarbage();
        const { stamps, messages } = await playAgainst(model, steps);
        const sizes = await server.takeSizes();
        if (history.length === 0) history = messages;
        const list = runs.get(adapter) ?? [];
        list.push(wireCostOf(adapter, stamps, sizes, steps, calls));
        runs.set(adapter, list);
      }
    }
    const adapters = [...runs.values()].map((list) => bestOf(list));
    return { adapters, builders: measureBuilders(history, historyPoints) };
  } finally {
    await server.close();
  }
}

function wireCostOf(
  adapter: string,
  stamps: readonly number[],
  sizes: readonly number[],
  steps: number,
  calls: number,
): AdapterWireCost {
  const gaps = intervals(stamps);
  const edge = Math.min(10, gaps.length);
  const first10Us = mean(gaps.slice(0, edge)) * 1000;
  const last10Us = mean(gaps.slice(gaps.length - edge)) * 1000;
  const firstBytes = mean(sizes.slice(0, edge));
  const lastBytes = mean(sizes.slice(sizes.length - edge));
  return {
    adapter,
    steps,
    calls,
    first10Us,
    last10Us,
    firstBodyBytes: sizes[0] ?? 0,
    lastBodyBytes: sizes.at(-1) ?? 0,
    usPerKb: lastBytes > firstBytes ? (last10Us - first10Us) / ((lastBytes - firstBytes) / 1024) : 0,
  };
}

function bestOf(runs: readonly AdapterWireCost[]): AdapterWireCost {
  const [first, ...rest] = runs;
  if (first === undefined) throw new Error('no wire run');
  const first10Us = Math.min(first.first10Us, ...rest.map((run) => run.first10Us));
  const last10Us = Math.min(first.last10Us, ...rest.map((run) => run.last10Us));
  const span = (first.lastBodyBytes - first.firstBodyBytes) / 1024;
  return { ...first, first10Us, last10Us, usPerKb: span > 0 ? (last10Us - first10Us) / span : 0 };
}

async function playAgainst(model: Model, steps: number): Promise<{ stamps: number[]; messages: readonly Message[] }> {
  const catalogue = createCatalogue([
    defineTool({
      name: TOOL,
      description: ORDER_TOOL_DESCRIPTION,
      inputSchema: orderJsonSchema() as JsonSchemaObject,
      right: 'orders:read',
      run: (input) => lookUpOrders(input as unknown as OrderLookupInput),
    }),
  ]);
  const stamps: number[] = [];
  const timed: Model = {
    provider: model.provider,
    modelId: model.modelId,
    generate: (request) => {
      stamps.push(performance.now());
      return model.generate(request);
    },
  };
  const result = await runLoop({
    model: timed,
    catalogue,
    session: createSession({ id: 'wire', humanId: 'wire', rights: ['orders:read'] }),
    messages: [{ role: 'user', content: 'Which of my orders are still open?' }],
    maxTurns: steps,
  });
  if (result.status !== 'max_turns' || result.turns.length !== steps) {
    throw new Error(`wire run stopped early: ${result.status} after ${result.turns.length} turns`);
  }
  return { stamps, messages: result.messages };
}

function measureBuilders(history: readonly Message[], historyPoints: readonly number[]): BuilderCost[] {
  const costs: BuilderCost[] = [];
  const tools = createCatalogue([
    defineTool({
      name: TOOL,
      description: ORDER_TOOL_DESCRIPTION,
      inputSchema: orderJsonSchema() as JsonSchemaObject,
      right: 'orders:read',
      run: () => 'unused',
    }),
  ]).declarations;
  for (const steps of historyPoints) {
    // 1 user message, then per step an assistant turn and its tool reply.
    const messages = history.slice(0, 1 + 2 * steps);
    if (messages.length < 1 + 2 * steps) continue;
    const request = { messages, tools };
    // The serialisation alone, of a body built beforehand: what is left if the converted messages were cached.
    const built = buildAnthropicRequest(request, SETTINGS).body;
    costs.push(
      timeBuilder('anthropic: JSON.stringify of a prebuilt body only', steps, () => JSON.stringify(built)),
      timeBuilder('anthropic buildAnthropicRequest + JSON.stringify', steps, () =>
        JSON.stringify(buildAnthropicRequest(request, SETTINGS).body),
      ),
      timeBuilder('google convertToGoogleMessages + JSON.stringify', steps, () =>
        JSON.stringify(
          convertToGoogleMessages({
            system: undefined,
            messages,
            functionResponseRole: 'user',
            toProviderName: (name) => name,
          }).contents,
        ),
      ),
    );
  }
  return costs;
}

function timeBuilder(builder: string, historySteps: number, build: () => string): BuilderCost {
  const bodyBytes = Buffer.byteLength(build());
  const samples: number[] = [];
  const deadline = performance.now() + 150;
  while (samples.length < 5 || (samples.length < 200 && performance.now() < deadline)) {
    const started = performance.now();
    build();
    samples.push((performance.now() - started) * 1000);
  }
  return { builder, historySteps, bodyBytes, buildUs: median(samples) };
}
