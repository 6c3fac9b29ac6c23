import {
  type AnyToolDefinition,
  createCatalogue,
  createSession,
  defineTool,
  InMemoryJournal,
  type JsonSchemaObject,
  type Model,
  type ModelTurn,
  runLoop,
  type ToolCallPart,
} from '@toolcircuit/core';
import {
  lookUpOrders,
  ORDER_TOOL_DESCRIPTION,
  type OrderLookupInput,
  orderJsonSchema,
  orderZodSchema,
} from '../scenario/order-tool.js';
import type { Script } from '../scenario/scenario.js';
import { type BenchSystem, type PreparedRun, StepClock } from './bench-system.js';

export interface ToolcircuitVariant {
  /** `json`: JSON Schema compiled by ajv at catalogue time (default). `zod`: a Zod 4 schema (Standard Schema). */
  readonly schema?: 'json' | 'zod';
  /** Journal every attempt in an {@link InMemoryJournal}. */
  readonly journal?: boolean;
}

const RIGHT = 'orders:read';

/**
 * toolcircuit's `runLoop` with its four checks on every call. The fake model parses each call's JSON
 * arguments, as every adapter does with what the wire carries, and otherwise only hands back the script.
 */
export function toolcircuitSystem(variant: ToolcircuitVariant = {}): BenchSystem {
  const schema = variant.schema ?? 'json';
  const journal = variant.journal ?? false;
  const suffix = [schema === 'zod' ? 'zod' : '', journal ? 'journal' : ''].filter((part) => part !== '').join('+');
  return {
    id: 'toolcircuit',
    label: suffix === '' ? 'toolcircuit' : `toolcircuit (${suffix})`,
    validation:
      schema === 'json'
        ? 'always on: JSON Schema compiled once by ajv in createCatalogue, checked by the executor before the right and the tool'
        : "always on: the Zod schema's own ~standard.validate, checked by the executor",
    async prepare(script: Script): Promise<PreparedRun> {
      const counter = { runs: 0 };
      const tools: AnyToolDefinition[] = script.toolNames.map((name) =>
        schema === 'json'
          ? defineTool({
              name,
              description: ORDER_TOOL_DESCRIPTION,
              inputSchema: orderJsonSchema() as JsonSchemaObject,
              right: RIGHT,
              run: (input) => {
                counter.runs += 1;
                return lookUpOrders(input as unknown as OrderLookupInput);
              },
            })
          : defineTool({
              name,
              description: ORDER_TOOL_DESCRIPTION,
              inputSchema: orderZodSchema(),
              right: RIGHT,
              run: (input) => {
                counter.runs += 1;
                return lookUpOrders(input);
              },
            }),
      );
      const catalogue = createCatalogue(tools);
      const session = createSession({ id: 'bench-session', humanId: 'bench-user', rights: [RIGHT] });
      const clock = new StepClock();
      const model = scriptedModel(script, clock);
      return {
        async run() {
          clock.reset();
          counter.runs = 0;
          const started = performance.now();
          const result = await runLoop({
            model,
            catalogue,
            session,
            messages: [{ role: 'user', content: script.userText }],
            maxTurns: script.turns.length + 1,
            runId: 'bench-run',
            ...(journal ? { journal: new InMemoryJournal() } : {}),
          });
          const totalMs = performance.now() - started;
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: result.text };
        },
      };
    },
  };
}

const usage = { inputTokens: 10, outputTokens: 10, totalTokens: 20 };

function scriptedModel(script: Script, clock: StepClock): Model {
  return {
    provider: 'bench',
    modelId: 'bench-scripted',
    async generate(): Promise<ModelTurn> {
      const step = clock.stamp();
      const calls = script.turns[step];
      if (calls === undefined) {
        return {
          content: [{ type: 'text', text: script.finalText }],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage,
        };
      }
      const content: ToolCallPart[] = calls.map((call) => ({
        type: 'tool_call',
        id: call.id,
        name: call.toolName,
        input: JSON.parse(call.arguments) as unknown,
      }));
      return { content, stopReason: { unified: 'tool_calls', raw: 'tool_use' }, usage };
    },
  };
}
