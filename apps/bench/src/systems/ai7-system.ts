import { generateText, isStepCount, type Tool, tool } from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { lookUpOrders, lookUpOrdersAsync, ORDER_TOOL_DESCRIPTION, orderZodSchema } from '../scenario/order-tool.js';
import type { Script } from '../scenario/scenario.js';
import { scriptedResult } from './ai-system.js';
import { type BenchSystem, type PreparedRun, StepClock } from './bench-system.js';
import { type ToolMode, toolModeSuffix } from './tool-mode.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

/**
 * The `ai` package's next major (7, installed beside 6 as `ai7`: it declares Node ≥ 22 but runs on 20):
 * `generateText` with `stopWhen: isStepCount(S + 1)` over its own `MockLanguageModelV4`, Zod
 * `inputSchema` tools validated before `execute`, exactly as the `ai` 6 system (see there).
 */
export function ai7System(mode: ToolMode = 'sync'): BenchSystem {
  return {
    id: 'ai7',
    label: `ai 7.0.173${toolModeSuffix(mode)}`,
    spec: { id: 'ai7', tool: mode },
    validation: 'Zod inputSchema; generateText parses the arguments and validates them with the schema before execute',
    async prepare(script: Script): Promise<PreparedRun> {
      const counter = { runs: 0 };
      const tools: Record<string, Tool> = {};
      for (const name of script.toolNames) {
        tools[name] = tool({
          description: ORDER_TOOL_DESCRIPTION,
          inputSchema: orderZodSchema(),
          execute: (input) => {
            counter.runs += 1;
            return mode === 'sync' ? lookUpOrders(input) : lookUpOrdersAsync(input);
          },
        });
      }
      const clock = new StepClock();
      const model: MockLanguageModelV4 = new MockLanguageModelV4({
        doGenerate: async () => {
          model.doGenerateCalls.length = 0;
          // The V3 and V4 results have the same shape; only their type names differ.
          return scriptedResult(script, clock.stamp()) as GenerateResult;
        },
      });
      return {
        async run() {
          clock.reset();
          counter.runs = 0;
          const started = performance.now();
          const result = await generateText({
            model,
            tools,
            prompt: script.userText,
            stopWhen: isStepCount(script.turns.length + 1),
          });
          const totalMs = performance.now() - started;
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: result.text };
        },
      };
    },
  };
}
