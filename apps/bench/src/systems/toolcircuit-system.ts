import {
  type AnyToolDefinition,
  createCatalogue,
  createSession,
  defineTool,
  InMemoryJournal,
  type LoopResult,
  type LoopStream,
  type Model,
  type ModelTurn,
  runLoop,
  streamLoop,
  type ToolCallPart,
} from '@toolcircuit/core';
import { lookUpOrders, lookUpOrdersAsync, ORDER_TOOL_DESCRIPTION, orderZodSchema } from '../scenario/order-tool.js';
import { ORDERS_RIGHT, orderToolDefinition } from '../scenario/order-tool-definition.js';
import type { Script } from '../scenario/scenario.js';
import { type BenchSystem, type PreparedRun, StepClock, type SystemSpec } from './bench-system.js';

/** The toolcircuit options a {@link SystemSpec} can turn on (see there). */
export type ToolcircuitVariant = Omit<SystemSpec, 'id'>;

/**
 * toolcircuit's `runLoop` with its four checks on every call. The fake model parses each call's JSON
 * arguments, as every adapter does with what the wire carries, and otherwise only hands back the script.
 */
export function toolcircuitSystem(variant: ToolcircuitVariant = {}): BenchSystem {
  const schema = variant.schema ?? 'json';
  const journal = variant.journal ?? false;
  const loop = variant.loop ?? 'run';
  const mode = variant.tool ?? 'sync';
  const suffix = [
    schema === 'zod' ? 'zod' : '',
    journal ? 'journal' : '',
    loop === 'stream' ? 'streamLoop' : '',
    mode === 'async' ? 'async tool' : '',
  ]
    .filter((part) => part !== '')
    .join('+');
  return {
    id: 'toolcircuit',
    label: suffix === '' ? 'toolcircuit' : `toolcircuit (${suffix})`,
    spec: { id: 'toolcircuit', tool: mode, journal, schema, loop },
    validation:
      schema === 'json'
        ? 'always on: JSON Schema checked against its meta-schema in createCatalogue, compiled once by ajv on the first call, checked by the executor before the right and the tool'
        : "always on: the Zod schema's own ~standard.validate, checked by the executor",
    async prepare(script: Script): Promise<PreparedRun> {
      const counter = { runs: 0 };
      const tools: AnyToolDefinition[] = script.toolNames.map((name) =>
        schema === 'json'
          ? orderToolDefinition(
              name,
              () => {
                counter.runs += 1;
              },
              mode,
            )
          : defineTool({
              name,
              description: ORDER_TOOL_DESCRIPTION,
              inputSchema: orderZodSchema(),
              right: ORDERS_RIGHT,
              run: (input) => {
                counter.runs += 1;
                return mode === 'sync' ? lookUpOrders(input) : lookUpOrdersAsync(input);
              },
            }),
      );
      const catalogue = createCatalogue(tools);
      const session = createSession({ id: 'bench-session', humanId: 'bench-user', rights: [ORDERS_RIGHT] });
      const clock = new StepClock();
      const model = scriptedModel(script, clock);
      return {
        async run() {
          clock.reset();
          counter.runs = 0;
          const started = performance.now();
          const options = {
            model,
            catalogue,
            session,
            messages: [{ role: 'user' as const, content: script.userText }],
            maxTurns: script.turns.length + 1,
            runId: 'bench-run',
            ...(journal ? { journal: new InMemoryJournal() } : {}),
          };
          const result = loop === 'run' ? await runLoop(options) : await drained(streamLoop(options));
          const totalMs = performance.now() - started;
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: result.text };
        },
      };
    },
  };
}

/** Reads every event, as a streaming application does, then takes the result. */
async function drained(stream: LoopStream): Promise<LoopResult> {
  for await (const _event of stream) {
    // Each event is handed over; the bench only needs the run to advance.
  }
  return stream.result;
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
