import { generateText, stepCountIs, type Tool, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { lookUpOrders, lookUpOrdersAsync, ORDER_TOOL_DESCRIPTION, orderZodSchema } from '../scenario/order-tool.js';
import type { Script } from '../scenario/scenario.js';
import { type BenchSystem, type PreparedRun, StepClock } from './bench-system.js';
import { type ToolMode, toolModeSuffix } from './tool-mode.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

/**
 * The `ai` package (Vercel AI SDK 6): `generateText` with `stopWhen: stepCountIs(S + 1)` over its own
 * `MockLanguageModelV3`. Tools declare a Zod `inputSchema`; `generateText` parses each call's JSON and
 * validates it against that schema before `execute` (an invalid input becomes a tool error, not a run).
 *
 * The mock keeps every call's options in `doGenerateCalls`; it is emptied on each call so the benchmark
 * does not hold S prompts alive that a real provider would not keep (that would inflate `ai`'s memory).
 */
export function aiSystem(mode: ToolMode = 'sync'): BenchSystem {
  return {
    id: 'ai',
    label: `ai 6.0.325${toolModeSuffix(mode)}`,
    spec: { id: 'ai', tool: mode },
    validation:
      'Zod inputSchema; generateText parses the arguments and validates them with the schema before execute (parseToolCall)',
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
      const model: MockLanguageModelV3 = new MockLanguageModelV3({
        doGenerate: async () => {
          model.doGenerateCalls.length = 0;
          return scriptedResult(script, clock.stamp());
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
            stopWhen: stepCountIs(script.turns.length + 1),
          });
          const totalMs = performance.now() - started;
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: result.text };
        },
      };
    },
  };
}

/** The scripted turn as a language-model result (the same shape in the V3 and V4 model specifications). */
export function scriptedResult(script: Script, step: number): GenerateResult {
  const calls = script.turns[step];
  if (calls === undefined) {
    return {
      content: [{ type: 'text', text: script.finalText }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.toolName,
      input: call.arguments,
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}
